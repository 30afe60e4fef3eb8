/** The Notes panel's forms: a highlight from the page's sentences, a highlight's colour, a note, a bookmark's label. */
import { useEffect, useId, useRef, useState } from "react";
import { type PageSentence, pageSentences } from "../../lib/reader/page-sentences.ts";
import type { PageText } from "../../lib/reader/reader-api.ts";
import { HIGHLIGHT_CLASSES } from "./highlight-marks.tsx";
import { field, primary, smallButton } from "./notes-styles.ts";

export const COLOURS = ["yellow", "green", "blue", "pink"] as const;
export const NOTE_MAX = 2_000;

/**
 * The page's sentences as a list to highlight from: the keyboard's and the screen reader's way to
 * a highlight (a pointer selects words on the page instead). A sentence already highlighted says so.
 */
export function SentencePicker({
  page,
  loadText,
  onPick,
}: {
  page: number;
  loadText: (page: number) => Promise<PageText>;
  onPick: (sentence: PageSentence, colour: (typeof COLOURS)[number]) => Promise<void>;
}) {
  const [state, setState] = useState<{ page: number; sentences: PageSentence[] } | { page: number; error: string } | null>(null);
  const [colour, setColour] = useState<(typeof COLOURS)[number]>("yellow");
  useEffect(() => {
    let cancelled = false;
    loadText(page).then(
      (text) => !cancelled && setState({ page, sentences: pageSentences(text.runs) }),
      (error: Error) => !cancelled && setState({ page, error: error.message }),
    );
    return () => {
      cancelled = true;
    };
  }, [loadText, page]);
  if (!state || state.page !== page) return <p className="text-sm text-slate-400">Loading the page's sentences...</p>;
  if ("error" in state) return <p className="text-sm text-amber-300">{state.error}</p>;
  if (state.sentences.length === 0) return <p className="text-sm text-slate-400">There is no text on this page to highlight.</p>;
  return (
    <div className="space-y-2 rounded-lg bg-white/5 p-2">
      <ColourChoice name="sentence-colour" value={colour} onChange={setColour} legend="Colour" />
      <ul className="max-h-64 space-y-1 overflow-y-auto" aria-label={`Sentences on page ${page}`}>
        {state.sentences.map((sentence) => (
          <li key={`${sentence.start.run}:${sentence.start.offset}`}>
            <button
              type="button"
              onClick={() => onPick(sentence, colour)}
              className="block w-full rounded-md px-2 py-1 text-left text-sm hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
            >
              <span className="line-clamp-2">{sentence.text}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The four highlight colours as radio buttons, each with its swatch and its name. */
export function ColourChoice({
  name,
  value,
  onChange,
  legend,
}: {
  name: string;
  value: (typeof COLOURS)[number];
  onChange: (colour: (typeof COLOURS)[number]) => void;
  /** Shown above the choice; without it the legend is for screen readers only. */
  legend?: string;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className={legend ? "mb-1 text-xs font-semibold text-slate-300" : "sr-only"}>{legend ?? "Colour"}</legend>
      {COLOURS.map((c) => (
        <label key={c} className="inline-flex cursor-pointer items-center gap-1 text-xs">
          <input type="radio" name={name} value={c} checked={value === c} onChange={() => onChange(c)} />
          <span aria-hidden="true" className={`h-3 w-3 rounded-sm ${HIGHLIGHT_CLASSES[c]}`} />
          {c[0]?.toUpperCase()}
          {c.slice(1)}
        </label>
      ))}
    </fieldset>
  );
}

export function NoteForm({
  label,
  initial,
  submit,
  optional = false,
  onCancel,
  onSave,
}: {
  label: string;
  initial: string;
  submit: string;
  optional?: boolean;
  onCancel: () => void;
  onSave: (note: string) => Promise<boolean>;
}) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  const left = NOTE_MAX - text.length;
  return (
    <form
      className="space-y-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        await onSave(text.trim());
        setBusy(false);
      }}
    >
      <label htmlFor={id} className="block text-xs font-semibold text-slate-300">
        {label}
      </label>
      <textarea
        ref={box}
        id={id}
        value={text}
        maxLength={NOTE_MAX}
        rows={4}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.stopPropagation();
            onCancel();
          }
        }}
        className={field}
        aria-describedby={`${id}-left`}
      />
      <div className="flex items-center justify-between gap-2">
        <span id={`${id}-left`} className="text-xs text-slate-400">
          {left.toLocaleString("en-US")} characters left
        </span>
        <span className="flex gap-2">
          <button type="button" className={smallButton} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className={primary} disabled={busy || (!optional && !text.trim())}>
            {submit}
          </button>
        </span>
      </div>
    </form>
  );
}

export function LabelForm({
  initial,
  onCancel,
  onSave,
}: {
  initial: string;
  onCancel: () => void;
  onSave: (label: string) => Promise<boolean>;
}) {
  const [text, setText] = useState(initial);
  const id = useId();
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        await onSave(text.trim());
      }}
    >
      <span className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-xs font-semibold text-slate-300">
          Bookmark label
        </label>
        <input
          id={id}
          value={text}
          maxLength={100}
          onChange={(event) => setText(event.target.value)}
          className={field}
          // biome-ignore lint/a11y/noAutofocus: the teacher asked to edit this label
          autoFocus
        />
      </span>
      <button type="button" className={smallButton} onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className={primary}>
        Save
      </button>
    </form>
  );
}
