import { useCallback, useEffect, useState } from "react";
import { Link, useBlocker } from "react-router";
import type { BatchTerms } from "../../../../workers/codes/batches.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses } from "../admin-page.tsx";
import { CodeCards } from "./code-cards.tsx";
import { codesCsv, codesFileName, type MadeBatch, saveTextFile } from "./codes-csv.ts";
import { booksLine, redeemByText, termsLine } from "./terms.ts";

/** The sentence above the codes just made (the contract's words). */
export const madeMessage = (count: number) =>
  `${count.toLocaleString("en-US")} codes made. They are shown only now: download the CSV or print the cards before you leave this page.`;

/**
 * The codes of the batch just made, the one time they exist outside their hashes: Download CSV (a
 * file made here in the browser) and Print cards. Until one of them was used, leaving the page
 * asks first: the browser's own warning on a reload or a closed tab, and a dialog on a link inside
 * the console.
 */
export function MadeCodes({
  batch,
  codes,
  publisher,
}: {
  batch: MadeBatch & BatchTerms & { count?: number };
  codes: readonly string[];
  publisher: string;
}) {
  const [kept, setKept] = useState(false);
  const [printing, setPrinting] = useState(false);
  const closeCards = useCallback(() => setPrinting(false), []);

  useEffect(() => {
    if (kept) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    // Printing (the view's button, or the browser's own Print) counts as keeping them.
    const printed = () => setKept(true);
    window.addEventListener("beforeunload", warn);
    window.addEventListener("beforeprint", printed);
    return () => {
      window.removeEventListener("beforeunload", warn);
      window.removeEventListener("beforeprint", printed);
    };
  }, [kept]);
  const blocker = useBlocker(!kept);

  function download() {
    saveTextFile(codesCsv(batch, codes), codesFileName(batch));
    setKept(true);
  }

  return (
    <section className={`${cardClasses} space-y-4`} aria-labelledby="made-codes-title">
      <h2 id="made-codes-title" className="text-lg font-semibold">
        Batch {batch.id}: {batch.label}
      </h2>
      <MessageBox tone="success" text={madeMessage(codes.length)} />
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Books</dt>
        <dd>{booksLine(batch.books, 10)}</dd>
        <dt className="font-medium">Each code gives</dt>
        <dd>{termsLine(batch)}</dd>
        <dt className="font-medium">Redeeming</dt>
        <dd>{redeemByText(batch.redeemBy)}</dd>
      </dl>
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={download}>Download CSV</Button>
        <Button variant="secondary" aria-haspopup="dialog" onClick={() => setPrinting(true)}>
          Print cards
        </Button>
        <Link to={`/admin/codes/${batch.id}`} className="text-sm text-indigo-700 underline dark:text-indigo-300">
          Open the batch
        </Link>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {kept
          ? "Keep the file or the printed cards safe: the codes cannot be shown again. Withdraw a lost code on the batch's page."
          : "Nothing keeps the codes in clear: once you leave this page they cannot be shown again."}
      </p>
      <CodesPreview codes={codes} />
      {printing && <CodeCards batch={batch} codes={codes} publisher={publisher} onClose={closeCards} />}
      <Dialog
        id="leave-codes-dialog"
        open={blocker.state === "blocked"}
        onClose={() => blocker.reset?.()}
        title="Leave without the codes?"
        description="You have not downloaded the CSV or printed the cards. The codes cannot be shown again once you leave."
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => blocker.reset?.()}>
            Stay
          </Button>
          <Button onClick={() => blocker.proceed?.()}>Leave anyway</Button>
        </div>
      </Dialog>
    </section>
  );
}

/** The first codes, so the admin sees what was made; the rest are in the file and on the cards. */
function CodesPreview({ codes }: { codes: readonly string[] }) {
  const shown = codes.slice(0, 10);
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">
        {codes.length > shown.length ? `The first ${shown.length} of ${codes.length.toLocaleString("en-US")}` : "The codes"}
      </h3>
      <ul className="grid gap-1 font-mono text-sm sm:grid-cols-2">
        {shown.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}
