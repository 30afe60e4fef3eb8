import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "../ui/button.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { cardClasses } from "./admin-page.tsx";
import { AssignedBadge } from "./book-picker.tsx";

type AssignedBook = { id: number; title: string; author1: string; gradeLevel: number | null; subject: string | null };

import type { action } from "../../routes/admin-assign-books.tsx";

/**
 * The books a school has, each with an Unassign button; the confirmation posts intent "unassign"
 * to the page's action (revokeAccess, as DELETE /api/books/access/:schoolId/:bookId). `onDone`
 * hears what happened.
 */
export function AssignedBooks({
  schoolName,
  books,
  total,
  onDone,
}: {
  schoolName: string;
  books: AssignedBook[];
  total: number;
  onDone: (message: { text: string; tone?: "success" }) => void;
}) {
  const fetcher = useFetcher<typeof action>();
  const [confirming, setConfirming] = useState<AssignedBook | null>(null);
  const [sent, setSent] = useState<AssignedBook | null>(null);
  const busy = fetcher.state !== "idle";

  // Each answer once: the dialog closes and the page says what happened.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to a new answer only
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle" || !sent) return;
    onDone("error" in answer ? { text: answer.error } : { text: `“${sent.title}” unassigned from ${schoolName}.`, tone: "success" });
    setSent(null);
    setConfirming(null);
  }, [fetcher.data, fetcher.state]);

  return (
    <section className={cardClasses} aria-labelledby="assigned-books-title">
      <h2 id="assigned-books-title" className="mb-3 font-semibold">
        {`Assigned books (${total.toLocaleString("en-US")})`}
      </h2>
      {books.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">This school has no books yet.</p>
      ) : (
        <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800">
          {books.map((book) => (
            <li key={book.id} className="flex items-center gap-3 py-2 text-sm">
              <span className="font-medium">{book.title}</span>
              <span className="text-xs text-slate-500">
                {[book.author1, book.gradeLevel ? `Standard ${book.gradeLevel}` : null, book.subject].filter(Boolean).join(" · ")}
              </span>
              <AssignedBadge />
              <Button
                variant="secondary"
                className="px-3 py-1.5 text-red-700 dark:text-red-300"
                aria-label={`Unassign ${book.title}`}
                onClick={() => setConfirming(book)}
              >
                Unassign
              </Button>
            </li>
          ))}
        </ul>
      )}
      {total > books.length && (
        <p className="mt-2 text-xs text-slate-500">
          Showing the first {books.length} by title. Assigning one of the others again changes nothing.
        </p>
      )}
      <Dialog
        id="unassign-book-dialog"
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? `Unassign “${confirming.title}”?` : "Unassign this book?"}
        description={`Teachers of ${schoolName} will no longer see it in their library. Their reading progress is kept if it is assigned again.`}
      >
        <fetcher.Form method="post" className="flex justify-end gap-3" onSubmit={() => setSent(confirming)}>
          <input type="hidden" name="intent" value="unassign" />
          <input type="hidden" name="bookId" value={confirming?.id ?? ""} />
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            Keep it
          </Button>
          <Button type="submit" disabled={busy} className="bg-red-600 hover:bg-red-700">
            {busy ? "Unassigning..." : "Unassign"}
          </Button>
        </fetcher.Form>
      </Dialog>
    </section>
  );
}
