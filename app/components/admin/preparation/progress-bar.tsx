/** "Preparing pages: 37 of 352" and its bar; named for screen readers by `label` (the book's title on the board). */
export function PreparingProgress({ handled, total, label }: { handled: number; total: number | null; label: string }) {
  const fraction = total ? Math.min(1, handled / total) : 0;
  const text = total ? `Preparing pages: ${handled} of ${total}` : "Counting the pages...";
  return (
    <div className="space-y-1">
      <p className="tabular-nums">{text}</p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total ?? 1}
        aria-valuenow={total ? handled : 0}
        aria-valuetext={total ? `${handled} of ${total} pages` : "Counting the pages"}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className="h-full bg-indigo-600 transition-[width] duration-500" style={{ width: `${Math.round(fraction * 100)}%` }} />
      </div>
    </div>
  );
}
