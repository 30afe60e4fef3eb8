import { ButtonLink } from "../button-link.tsx";

/** The reader's failure screen: 'Error Loading PDF', what went wrong, and the way back. */
export function ReaderError({ message, backHref, backLabel }: { message: string; backHref: string; backLabel: string }) {
  return (
    <div
      data-reader
      data-reader-error={message}
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900 p-4 print:hidden"
    >
      <div
        role="alert"
        className="w-full max-w-md rounded-2xl border border-white/10 bg-slate-800 p-8 text-center text-slate-100 shadow-2xl"
      >
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-red-500/15 text-red-300">
          <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M12 8v5M12 16h.01M4 19h16L12 4z" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
        <h1 className="mt-4 text-xl font-bold">Error Loading PDF</h1>
        <p className="mt-2 text-slate-300">{message}</p>
        <ButtonLink to={backHref} className="mt-6">
          {backLabel}
        </ButtonLink>
      </div>
    </div>
  );
}
