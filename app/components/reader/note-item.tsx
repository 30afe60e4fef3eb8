import { useState } from "react";
import type { ShownAnnotation } from "../../lib/offline/outbox-overlay.ts";
import { HIGHLIGHT_CLASSES } from "./highlight-marks.tsx";
import { type COLOURS, ColourChoice, LabelForm, NoteForm } from "./note-forms.tsx";
import { smallButton } from "./notes-styles.ts";
import { NOT_YET_SAVED } from "./offline-notes.tsx";

export const KIND_NAMES = { bookmark: "Bookmark", highlight: "Highlight", note: "Note" } as const;

export function NoteItem({
  annotation: a,
  editing,
  onEdit,
  onGoTo,
  onDelete,
  onSave,
}: {
  /** `pending`: a change to it waits in the outbox (marked "not yet saved"). */
  annotation: ShownAnnotation;
  editing: boolean;
  onEdit: (on: boolean) => void;
  onGoTo: () => void;
  onDelete: () => void;
  onSave: (patch: { label?: string | null; note?: string | null; colour?: (typeof COLOURS)[number] }) => Promise<boolean>;
}) {
  const [colour, setColour] = useState((a.colour ?? "yellow") as (typeof COLOURS)[number]);
  const summary =
    a.kind === "bookmark"
      ? (a.label ?? "Bookmark")
      : a.kind === "note"
        ? (a.note ?? "")
        : a.text
          ? `“${a.text}”`
          : a.pending
            ? "Highlighted words (shown once saved)"
            : "Highlighted words (hidden for now)";
  return (
    <li className="rounded-lg bg-white/5 p-2" data-annotation={a.id} data-kind={a.kind} data-pending={a.pending ? "true" : undefined}>
      <button
        type="button"
        onClick={onGoTo}
        className="block w-full rounded-md p-1 text-left text-sm hover:bg-white/5 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
      >
        <span className="flex items-start gap-2">
          <span
            aria-hidden="true"
            className={`mt-1 h-3 w-3 shrink-0 rounded-sm ${
              a.kind === "highlight" ? HIGHLIGHT_CLASSES[a.colour ?? "yellow"] : a.kind === "bookmark" ? "bg-indigo-400" : "bg-slate-400"
            }`}
          />
          <span className="min-w-0">
            <span className="block text-xs text-slate-400">
              {KIND_NAMES[a.kind]}, page {a.page}
              <span className="sr-only">: </span>
            </span>
            <span className="line-clamp-4 break-words whitespace-pre-line">{summary}</span>
            {a.kind === "highlight" && a.note && (
              <span className="mt-1 block text-slate-300 whitespace-pre-line">
                <span className="sr-only">. </span>Note: {a.note}
              </span>
            )}
            <span className="sr-only">. Go to page {a.page}</span>
          </span>
        </span>
      </button>
      {a.pending && (
        <p className="mt-1 flex items-center gap-1 text-xs text-amber-300" data-not-saved>
          <span aria-hidden="true" className="h-2 w-2 rounded-full border border-amber-300 border-dashed" />
          {NOT_YET_SAVED}
        </p>
      )}
      {editing ? (
        <div className="mt-2 space-y-2">
          {a.kind === "highlight" && <ColourChoice name={`colour-${a.id}`} value={colour} onChange={setColour} />}
          {a.kind === "bookmark" ? (
            <LabelForm initial={a.label ?? ""} onCancel={() => onEdit(false)} onSave={(label) => onSave({ label: label || null })} />
          ) : (
            <NoteForm
              label={a.kind === "note" ? `Note on page ${a.page}` : `Note on the highlight on page ${a.page}`}
              initial={a.note ?? ""}
              submit="Save"
              optional={a.kind === "highlight"}
              onCancel={() => onEdit(false)}
              onSave={(note) => onSave(a.kind === "highlight" ? { colour, note: note || null } : { note })}
            />
          )}
        </div>
      ) : (
        <div className="mt-1 flex gap-1">
          <button type="button" className={smallButton} onClick={() => onEdit(true)} aria-label={`Edit the ${a.kind} on page ${a.page}`}>
            Edit
          </button>
          <button type="button" className={smallButton} onClick={onDelete} aria-label={`Delete the ${a.kind} on page ${a.page}`}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
