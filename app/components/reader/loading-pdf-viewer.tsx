import { Spinner } from "../ui/spinner.tsx";

/** 'Loading PDF viewer...' (the spec's text), full screen: while pdf.js's chunk loads and while the PDF is checked. */
export function LoadingPdfViewer() {
  return (
    <div
      data-reader
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-slate-900 text-slate-200 print:hidden"
    >
      <Spinner label="Loading PDF viewer..." className="h-10 w-10 text-indigo-400" />
      <p>Loading PDF viewer...</p>
    </div>
  );
}
