import { useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";

/**
 * Cancel, asked first: the set's pages (and, for an upload, its PDF) are discarded. The book keeps
 * what teachers read now. `onConfirm` throws a sentence when the server refuses.
 */
export function CancelPreparation({
  id,
  label,
  title,
  newPdf,
  hasReadyPages,
  onConfirm,
}: {
  id: string;
  /** The Cancel button's accessible name (several are on the Preparation page). */
  label: string;
  /** The book's title, named in the question when the page shows several books. */
  title?: string;
  newPdf: boolean;
  hasReadyPages: boolean;
  onConfirm: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const discarded = newPdf
    ? "The PDF uploaded for them and the pages prepared so far are discarded."
    : "The pages prepared so far are discarded.";
  const kept = hasReadyPages ? "Teachers keep reading the current pages." : "Teachers cannot open the book until its pages are prepared.";

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} aria-label={label}>
        Cancel
      </Button>
      <Dialog
        id={id}
        open={open}
        onClose={() => setOpen(false)}
        title="Cancel preparing these pages?"
        description={`${title ? `"${title}": ` : ""}${discarded} ${kept}`}
      >
        {error && (
          <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep preparing
          </Button>
          <Button disabled={busy} onClick={() => void confirm()} className="bg-red-600 hover:bg-red-700">
            {busy ? "Cancelling..." : "Cancel preparation"}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
