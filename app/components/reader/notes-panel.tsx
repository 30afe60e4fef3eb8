import { useEffect, useId, useMemo, useState } from "react";
import { type Annotation, annotationsExportUrl, type PageText } from "../../lib/reader/reader-api.ts";
import { NoteForm, SentencePicker } from "./note-forms.tsx";
import { KIND_NAMES, NoteItem } from "./note-item.tsx";
import { field, primary, secondary, smallButton } from "./notes-styles.ts";
import { OfflineNotes } from "./offline-notes.tsx";
import { ReaderPanel } from "./reader-panel.tsx";
import type { Annotations } from "./use-annotations.ts";

const UNDO_MS = 10_000;

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
        <OfflineNotes notes={notes} />
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
