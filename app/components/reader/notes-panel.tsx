import { useEffect, useId, useMemo, useRef, useState } from "react";
import { type PageSentence, pageSentences } from "../../lib/reader/page-sentences.ts";
import { type Annotation, annotationsExportUrl, type PageText } from "../../lib/reader/reader-api.ts";
import { HIGHLIGHT_CLASSES } from "./highlight-marks.tsx";
import { ReaderPanel } from "./reader-panel.tsx";
import type { Annotations } from "./use-annotations.ts";

const COLOURS = ["yellow", "green", "blue", "pink"] as const;
const NOTE_MAX = 2_000;
const UNDO_MS = 10_000;

const field =
  "w-full rounded-lg border border-white/15 bg-slate-950 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-indigo-400 focus:outline-none focus:ring-2 focus:ring-indigo-400/40";
const smallButton =
  "rounded-md px-2 py-1 text-xs font-semibold text-slate-200 hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400";
const secondary =
  "rounded-lg border border-white/15 px-3 py-1.5 text-sm font-semibold hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400";
const primary =
  "rounded-lg bg-indigo-500 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-400 disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-300";

const KIND_NAMES = { bookmark: "Bookmark", highlight: "Highlight", note: "Note" } as const;

/** What an annotation says in the list, and what a search looks in. */
function words(a: Annotation): string {
  return [a.label, a.text, a.note].filter(Boolean).join(" ");
}

/**
 * The Notes panel: the teacher's bookmarks, highlights and notes in page order, each opening its
 * page; a bookmark and a note for the page being read; a search across them; editing in place and
 * deleting with an undo; and the Markdown download. Everything is named for screen readers and
 * works from the keyboard (Escape closes the panel).
 */
export function NotesPanel({
  bookId,
  page,
  notes,
  editing,
  onEditing,
  onGoTo,
  onClose,
  loadText,
}: {
  bookId: number;
  page: number;
  notes: Annotations;
  /** The page's text (the reader's store: fetched once per visit); without it, no sentence list. */
  loadText?: (page: number) => Promise<PageText>;
  /** The annotation open for editing (a highlight just made with "Add note"), or null. */
  editing: number | null;
  onEditing: (id: number | null) => void;
  onGoTo: (page: number) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState("");
  const [adding, setAdding] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [deleted, setDeleted] = useState<Annotation | null>(null);
  const [status, setStatus] = useState("");
  const searchId = useId();

  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => setDeleted(null), UNDO_MS);
    return () => clearTimeout(timer);
  }, [deleted]);

  const needle = query.trim().toLowerCase();
  const shown = useMemo(
    () => (needle ? notes.annotations.filter((a) => words(a).toLowerCase().includes(needle)) : notes.annotations),
    [notes.annotations, needle],
  );
  const pages = useMemo(() => {
    const groups: { page: number; items: Annotation[] }[] = [];
    for (const a of shown) {
      const last = groups.at(-1);
      if (last?.page === a.page) last.items.push(a);
      else groups.push({ page: a.page, items: [a] });
    }
    return groups;
  }, [shown]);
  const bookmark = notes.annotations.find((a) => a.kind === "bookmark" && a.page === page);

  const toggleBookmark = async () => {
    if (bookmark) {
      if (await notes.remove(bookmark)) {
        setDeleted(bookmark);
        setStatus(`Bookmark on page ${page} removed.`);
      }
    } else if (await notes.add({ kind: "bookmark", page })) setStatus(`Page ${page} bookmarked.`);
  };

  const remove = async (a: Annotation) => {
    if (await notes.remove(a)) {
      setDeleted(a);
      setStatus(`${KIND_NAMES[a.kind]} on page ${a.page} deleted.`);
    }
  };

  return (
    <ReaderPanel title="Notes" side="right" onClose={onClose}>
      <div className="space-y-3 border-b border-white/10 p-4">
        <div className="flex flex-wrap gap-2">
          <button type="button" className={primary} aria-pressed={Boolean(bookmark)} onClick={toggleBookmark} data-autofocus>
            {bookmark ? `Remove bookmark (page ${page})` : `Bookmark page ${page}`}
          </button>
          <button type="button" className={secondary} aria-expanded={adding} onClick={() => setAdding((on) => !on)}>
            Add a note to page {page}
          </button>
        </div>
        {loadText && (
          <button type="button" className={secondary} aria-expanded={choosing} onClick={() => setChoosing((on) => !on)}>
            Highlight a sentence on page {page}
          </button>
        )}
        {choosing && loadText && (
          <SentencePicker
            page={page}
            loadText={loadText}
            onPick={async (sentence, colour) => {
              const made = await notes.add({ kind: "highlight", page, colour, start: sentence.start, end: sentence.end });
              if (made) setStatus(`Highlighted on page ${page}: ${sentence.text.slice(0, 60)}`);
            }}
          />
        )}
        {adding && (
          <NoteForm
            label={`Note on page ${page}`}
            initial=""
            submit="Save note"
            onCancel={() => setAdding(false)}
            onSave={async (note) => {
              if (!(await notes.add({ kind: "note", page, note }))) return false;
              setAdding(false);
              setStatus(`Note added to page ${page}.`);
              return true;
            }}
          />
        )}
        <div>
          <label htmlFor={searchId} className="sr-only">
            Search your notes
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search your notes"
            className={field}
          />
        </div>
        {notes.withheld && (
          <p className="rounded-lg bg-amber-100 px-3 py-2 text-xs text-amber-950">
            Your highlights' words are hidden for now. {notes.withheld}
          </p>
        )}
        {notes.error && (
          <p role="alert" className="rounded-lg bg-red-100 px-3 py-2 text-sm text-red-900">
            {notes.error}
          </p>
        )}
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>
      {deleted && (
        <div className="flex items-center justify-between gap-2 border-b border-white/10 bg-slate-800 px-4 py-2 text-sm">
          <span>
            {KIND_NAMES[deleted.kind]} on page {deleted.page} deleted.
          </span>
          <button
            type="button"
            className={smallButton}
            onClick={async () => {
              const back = deleted;
              setDeleted(null);
              if (await notes.undo(back)) setStatus(`${KIND_NAMES[back.kind]} on page ${back.page} restored.`);
            }}
          >
            Undo
          </button>
        </div>
      )}
      <div className="p-4">
        {notes.status === "loading" ? (
          <p className="text-sm text-slate-400">Loading your notes...</p>
        ) : notes.annotations.length === 0 ? (
          <p className="text-sm text-slate-400">
            No bookmarks, highlights or notes yet. Bookmark a page, add a note, or turn on Highlight and select words on a page.
          </p>
        ) : pages.length === 0 ? (
          <p className="text-sm text-slate-400">Nothing in your notes matches “{query.trim()}”.</p>
        ) : (
          <ol className="space-y-4" aria-label="Your notes, by page">
            {pages.map((group) => (
              <li key={group.page}>
                <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">Page {group.page}</h3>
                <ul className="space-y-2">
                  {group.items.map((a) => (
                    <NoteItem
                      key={a.id}
                      annotation={a}
                      editing={editing === a.id}
                      onEdit={(on) => onEditing(on ? a.id : null)}
                      onGoTo={() => onGoTo(a.page)}
                      onDelete={() => remove(a)}
                      onSave={async (patch) => {
                        const saved = await notes.edit(a.id, patch);
                        if (saved) {
                          onEditing(null);
                          setStatus("Saved.");
                        }
                        return Boolean(saved);
                      }}
                    />
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
        {notes.annotations.length > 0 && (
          <a
            href={annotationsExportUrl(bookId)}
            download
            className="mt-6 inline-block text-sm font-medium text-indigo-300 underline-offset-2 hover:underline"
          >
            Download my notes (Markdown)
          </a>
        )}
      </div>
    </ReaderPanel>
  );
}

/**
 * The page's sentences as a list to highlight from: the keyboard's and the screen reader's way to
 * a highlight (a pointer selects words on the page instead). A sentence already highlighted says so.
 */
function SentencePicker({
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

function NoteItem({
  annotation: a,
  editing,
  onEdit,
  onGoTo,
  onDelete,
  onSave,
}: {
  annotation: Annotation;
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
          : "Highlighted words (hidden for now)";
  return (
    <li className="rounded-lg bg-white/5 p-2" data-annotation={a.id} data-kind={a.kind}>
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

/** The four highlight colours as radio buttons, each with its swatch and its name. */
function ColourChoice({
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

function NoteForm({
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

function LabelForm({ initial, onCancel, onSave }: { initial: string; onCancel: () => void; onSave: (label: string) => Promise<boolean> }) {
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
