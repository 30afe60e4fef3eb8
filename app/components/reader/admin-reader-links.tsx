import { Icon } from "../ui/icon.tsx";
import { PathIcon, toolbarButton } from "./reader-toolbar.tsx";

/**
 * The admin reader's own toolbar links: the other view of the book (its prepared pages, or the PDF
 * itself in pdf.js) and the PDF's download. Plain links: each view is its own document.
 */
export function AdminReaderLinks({ pdfUrl, otherView }: { pdfUrl: string | null; otherView: { href: string; label: string } | null }) {
  return (
    <>
      {otherView && (
        <a href={otherView.href} className={`${toolbarButton} gap-1.5`}>
          <PathIcon d="M7 3h7l5 5v13H7zM14 3v5h5" />
          <span className="max-sm:sr-only">{otherView.label}</span>
        </a>
      )}
      {pdfUrl && (
        <a
          href={pdfUrl}
          download
          className="inline-flex h-9 items-center gap-1 rounded-lg bg-indigo-500 px-3 font-medium text-white hover:bg-indigo-400"
        >
          <Icon className="h-4 w-4">
            <path d="M12 4v11M7 10l5 5 5-5M5 20h14" strokeLinecap="round" strokeLinejoin="round" />
          </Icon>
          <span className="max-sm:sr-only">Download</span>
        </a>
      )}
    </>
  );
}
