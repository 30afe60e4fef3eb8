import { useEffect, useRef } from "react";
import { createPortal } from "react-dom";
import type { BatchTerms } from "../../../../workers/codes/batches.ts";
import { Button } from "../../ui/button.tsx";
import type { MadeBatch } from "./codes-csv.ts";
import { booksLine, redeemByText, termsLine } from "./terms.ts";

/** Cards on one printed A4 sheet: two across, five down. */
export const CARDS_PER_SHEET = 10;

/** The element the print view is mounted in, a child of <body>: printing shows it and nothing else. */
const ROOT_ID = "code-cards-print";

/**
 * While the print view is open, printing shows only it: everything else under <body> is hidden,
 * and the view itself flows onto A4 sheets (fixed and scrolling on screen, static on paper, so
 * every sheet prints and not only the first screenful).
 */
const PRINT_CSS = `
@page { size: A4; margin: 10mm; }
@media print {
  body > :not(#${ROOT_ID}) { display: none !important; }
  html, body { background: #fff !important; }
  #${ROOT_ID} > div { position: static !important; overflow: visible !important; height: auto !important; background: #fff !important; padding: 0 !important; }
}`;

/**
 * The batch's codes as cards to cut out (the bookstore hands one out with each set of printed
 * books): the publisher, the book(s), the code large in a monospace type, where to redeem it and
 * until when. On screen a full-page preview with Print and Close; on paper the cards alone, ten a
 * sheet. Mounted beside the app under <body> (a portal), so the print CSS can hide the rest; the
 * rest of the page is inert while it is open.
 */
export function CodeCards({
  batch,
  codes,
  publisher,
  onClose,
}: {
  batch: MadeBatch & BatchTerms;
  codes: readonly string[];
  publisher: string;
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const others = [...document.body.children].filter((element) => element.id !== ROOT_ID);
    for (const element of others) element.setAttribute("inert", "");
    heading.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      for (const element of others) element.removeAttribute("inert");
      document.removeEventListener("keydown", onKey);
    };
  }, [onClose]);

  const sheets: string[][] = [];
  for (let i = 0; i < codes.length; i += CARDS_PER_SHEET) sheets.push(codes.slice(i, i + CARDS_PER_SHEET));
  const books = booksLine(batch.books, 4);
  const terms = termsLine(batch);

  return createPortal(
    <div id={ROOT_ID}>
      <style>{PRINT_CSS}</style>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="code-cards-title"
        className="fixed inset-0 z-50 overflow-y-auto bg-slate-200 px-4 py-6 text-slate-900 print:text-black"
      >
        <div className="mx-auto mb-6 flex max-w-[210mm] flex-wrap items-center justify-between gap-3 print:hidden">
          <div>
            <h2 id="code-cards-title" ref={heading} tabIndex={-1} className="text-lg font-bold focus:outline-none">
              Printable cards: {codes.length.toLocaleString("en-US")} codes on {sheets.length} A4 {sheets.length === 1 ? "sheet" : "sheets"}
            </h2>
            <p className="text-sm text-slate-600">Only the cards are printed, ten a sheet. Cut along the lines.</p>
          </div>
          <div className="flex gap-2">
            <Button onClick={() => window.print()}>Print</Button>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
        {sheets.map((sheet, index) => (
          <section
            // A sheet's codes never change while the view is open.
            // biome-ignore lint/suspicious/noArrayIndexKey: the sheets are fixed slices of the batch
            key={index}
            aria-label={`Sheet ${index + 1} of ${sheets.length}`}
            className="mx-auto mb-6 grid h-[277mm] w-[190mm] grid-cols-2 grid-rows-5 bg-white shadow-lg print:mb-0 print:shadow-none print:break-after-page last:print:break-after-auto"
          >
            {sheet.map((code) => (
              <article key={code} className="flex flex-col justify-between border border-dashed border-slate-400 px-[6mm] py-[4mm]">
                <div>
                  <p className="text-[9pt] font-semibold uppercase tracking-wider text-slate-600">{publisher}</p>
                  <p className="mt-[1mm] line-clamp-2 text-[11pt] font-bold leading-tight">{books}</p>
                  <p className="text-[8pt] text-slate-600">{terms}</p>
                </div>
                <p className="whitespace-nowrap text-center font-mono text-[15pt] font-bold tracking-wide">{code}</p>
                <div className="text-[8pt] leading-snug text-slate-700">
                  <p>Redeem on your school's Lectern: My school → Redeem a code</p>
                  {batch.redeemBy && <p className="font-semibold">{redeemByText(batch.redeemBy)}</p>}
                </div>
              </article>
            ))}
          </section>
        ))}
      </div>
    </div>,
    document.body,
  );
}
