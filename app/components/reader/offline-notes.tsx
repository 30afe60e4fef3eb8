import { useState } from "react";
import type { Problem } from "../../lib/offline/outbox-store.ts";
import { field, smallButton } from "./notes-styles.ts";
import type { Annotations } from "./use-annotations.ts";

/** The mark on an annotation whose change waits in the outbox (docs/decisions/0051). */
export const NOT_YET_SAVED = "Not yet saved: it will be sent when you're back online.";

/** The Notes panel's word on work done offline: the list as last loaded, what waits to be sent, and what the server did not take. */
export function OfflineNotes({ notes }: { notes: Pick<Annotations, "offline" | "pendingCount" | "problems" | "dismiss"> }) {
  const { offline, pendingCount, problems } = notes;
  return (
    <>
      {offline && (
        <p className="rounded-lg bg-slate-800 px-3 py-2 text-xs text-slate-200">
          You're offline. These are your notes as last loaded on this device; what you change is kept here and sent when you're back online.
        </p>
      )}
      {/* Always in the page, so a screen reader hears the count change. */}
      <p
        role="status"
        data-outbox-pending={pendingCount}
        className={pendingCount ? "rounded-lg bg-amber-100 px-3 py-2 text-xs text-amber-950" : "sr-only"}
      >
        {pendingCount === 0
          ? ""
          : `${pendingCount === 1 ? "1 change" : `${pendingCount} changes`} not yet saved. ${pendingCount === 1 ? "It" : "They"} will be sent when you're back online.`}
      </p>
      {problems.length > 0 && (
        <ul aria-label="Changes that were not saved" className="space-y-2">
          {problems.map((problem) => (
            <ProblemItem key={problem.id} problem={problem} onDismiss={() => notes.dismiss(problem.id)} />
          ))}
        </ul>
      )}
    </>
  );
}

/** One change the server did not take: why, and the teacher's own words to copy (never dropped unseen). */
function ProblemItem({ problem, onDismiss }: { problem: Problem; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(problem.words).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <li role="alert" className="space-y-2 rounded-lg bg-amber-100 p-3 text-xs text-amber-950" data-problem={problem.id}>
      <p>{problem.message}</p>
      {problem.words && (
        <>
          <label className="block font-semibold" htmlFor={`problem-${problem.id}`}>
            Your offline change
          </label>
          <textarea id={`problem-${problem.id}`} readOnly value={problem.words} rows={3} className={`${field} text-xs`} />
        </>
      )}
      <div className="flex gap-1">
        {problem.words && (
          <button type="button" className={`${smallButton} text-amber-950 hover:bg-amber-200`} onClick={copy}>
            {copied ? "Copied" : "Copy my text"}
          </button>
        )}
        <button type="button" className={`${smallButton} text-amber-950 hover:bg-amber-200`} onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </li>
  );
}
