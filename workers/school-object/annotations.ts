/**
 * A teacher's bookmarks, highlights and notes (docs/decisions/0032), kept in their school's object
 * beside the sessions and budgets they are checked against: private to the teacher, per book and
 * page, and no D1 write for any of them. The object calls these inside its single-threaded step,
 * after the session check and, where text is read back, the budget.
 */

export const ANNOTATION_KINDS = ["bookmark", "highlight", "note"] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];
export const HIGHLIGHT_COLOURS = ["yellow", "green", "blue", "pink"] as const;
export type HighlightColour = (typeof HIGHLIGHT_COLOURS)[number];

/** Where a highlight begins and ends in the page's text runs: run index and character offset (end exclusive). */
export interface TextPoint {
  run: number;
  offset: number;
}

/** What a new annotation holds, checked by the Worker (and, for a highlight, its text read from the page). */
export interface NewAnnotation {
  kind: AnnotationKind;
  page: number;
  label: string | null;
  note: string | null;
  colour: HighlightColour | null;
  start: TextPoint | null;
  end: TextPoint | null;
  text: string | null;
}

export interface Annotation extends NewAnnotation {
  id: number;
  createdAt: number;
  updatedAt: number;
}

/** What may change of an annotation: a bookmark's label, a note's text, a highlight's colour and note. */
export interface AnnotationPatch {
  label?: string | null;
  note?: string | null;
  colour?: HighlightColour;
}

/** The most annotations one teacher keeps in one book. */
export const MAX_ANNOTATIONS_PER_BOOK = 1_000;

/** A row of the `annotations` table (migrations.ts). */
type Row = {
  id: number;
  kind: AnnotationKind;
  page: number;
  label: string | null;
  note: string | null;
  colour: HighlightColour | null;
  anchor: string | null;
  text: string | null;
  created_at: number;
  updated_at: number;
};

const COLUMNS = "id, kind, page, label, note, colour, anchor, text, created_at, updated_at";

function fromRow(row: Row): Annotation {
  const anchor = row.anchor ? (JSON.parse(row.anchor) as { start: TextPoint; end: TextPoint }) : null;
  return {
    id: row.id,
    kind: row.kind,
    page: row.page,
    label: row.label,
    note: row.note,
    colour: row.colour,
    start: anchor?.start ?? null,
    end: anchor?.end ?? null,
    text: row.text,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The teacher's annotations of the book, in page order (and, on a page, in the order they were made). */
export function listAnnotations(sql: SqlStorage, teacherId: number, bookId: number): Annotation[] {
  return sql
    .exec<Row>(`SELECT ${COLUMNS} FROM annotations WHERE teacher_id = ? AND book_id = ? ORDER BY page, id`, teacherId, bookId)
    .toArray()
    .map(fromRow);
}

/** How many different pages of the book the teacher's highlights are on (what reading their text back costs). */
export function highlightedPages(sql: SqlStorage, teacherId: number, bookId: number): number {
  const [row] = sql
    .exec<{ n: number }>(
      "SELECT count(DISTINCT page) AS n FROM annotations WHERE teacher_id = ? AND book_id = ? AND kind = 'highlight'",
      teacherId,
      bookId,
    )
    .toArray();
  return row?.n ?? 0;
}

/**
 * Adds one, under the client's id when it sent one (docs/decisions/0051: the same id again finds
 * this one, clientAnnotation); null when the teacher already keeps MAX_ANNOTATIONS_PER_BOOK in the book.
 */
export function addAnnotation(
  sql: SqlStorage,
  teacherId: number,
  bookId: number,
  annotation: NewAnnotation,
  now: number,
  clientId: string | null = null,
): Annotation | null {
  const [count] = sql
    .exec<{ n: number }>("SELECT count(*) AS n FROM annotations WHERE teacher_id = ? AND book_id = ?", teacherId, bookId)
    .toArray();
  if ((count?.n ?? 0) >= MAX_ANNOTATIONS_PER_BOOK) return null;
  const anchor = annotation.start && annotation.end ? JSON.stringify({ start: annotation.start, end: annotation.end }) : null;
  const [row] = sql
    .exec<Row>(
      `INSERT INTO annotations (teacher_id, book_id, kind, page, label, note, colour, anchor, text, created_at, updated_at, client_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      teacherId,
      bookId,
      annotation.kind,
      annotation.page,
      annotation.label,
      annotation.note,
      annotation.colour,
      anchor,
      annotation.text,
      now,
      now,
      clientId,
    )
    .toArray();
  return row ? fromRow(row) : null;
}

/** The teacher's annotation made under `clientId` and its book, or null (only the teacher's own are looked at). */
export function clientAnnotation(sql: SqlStorage, teacherId: number, clientId: string): { annotation: Annotation; bookId: number } | null {
  const [row] = sql
    .exec<Row & { book_id: number }>(
      `SELECT book_id, ${COLUMNS} FROM annotations WHERE teacher_id = ? AND client_id = ?`,
      teacherId,
      clientId,
    )
    .toArray();
  return row ? { annotation: fromRow(row), bookId: row.book_id } : null;
}

/** The teacher's annotation `id` of the book, or null (another teacher's, another book's, or none). */
export function findAnnotation(sql: SqlStorage, teacherId: number, bookId: number, id: number): Annotation | null {
  const [row] = sql
    .exec<Row>(`SELECT ${COLUMNS} FROM annotations WHERE id = ? AND teacher_id = ? AND book_id = ?`, id, teacherId, bookId)
    .toArray();
  return row ? fromRow(row) : null;
}

/** What each kind may change: a bookmark its label, a note its text, a highlight its colour and note. */
const EDITABLE: Record<AnnotationKind, (keyof AnnotationPatch)[]> = {
  bookmark: ["label"],
  note: ["note"],
  highlight: ["colour", "note"],
};

/** Why a patch does not fit the annotation's kind, or null. */
function patchRefusal(kind: AnnotationKind, patch: AnnotationPatch): string | null {
  const wrong = (Object.keys(patch) as (keyof AnnotationPatch)[]).find((key) => patch[key] !== undefined && !EDITABLE[kind].includes(key));
  if (wrong) return `A ${kind} has no ${wrong === "colour" ? "colour" : wrong} to change.`;
  if (kind === "note" && patch.note === null) return "Write the note, or delete it.";
  return null;
}

/**
 * Applies the patch (only the fields it names) as made at `at`; null when the annotation is not the
 * teacher's, `{ error }` when the patch does not fit its kind, `{ newer }` (nothing changed) when it
 * was changed after `at`: the later edit wins (docs/decisions/0051).
 */
export function updateAnnotation(
  sql: SqlStorage,
  teacherId: number,
  bookId: number,
  id: number,
  patch: AnnotationPatch,
  at: number,
): Annotation | null | { error: string } | { newer: Annotation } {
  const current = findAnnotation(sql, teacherId, bookId, id);
  if (!current) return null;
  const refused = patchRefusal(current.kind, patch);
  if (refused) return { error: refused };
  if (current.updatedAt > at) return { newer: current };
  const next = {
    label: patch.label === undefined ? current.label : patch.label,
    note: patch.note === undefined ? current.note : patch.note,
    colour: patch.colour ?? current.colour,
  };
  const [row] = sql
    .exec<Row>(
      `UPDATE annotations SET label = ?, note = ?, colour = ?, updated_at = ? WHERE id = ? AND teacher_id = ? RETURNING ${COLUMNS}`,
      next.label,
      next.note,
      next.colour,
      at,
      id,
      teacherId,
    )
    .toArray();
  return row ? fromRow(row) : null;
}

/**
 * Deletes it, as decided at `at` (no time: now); false when it was not the teacher's, `{ newer }`
 * (kept) when it was changed after `at`: a deletion made offline does not undo a later change.
 */
export function deleteAnnotation(
  sql: SqlStorage,
  teacherId: number,
  bookId: number,
  id: number,
  at?: number,
): boolean | { newer: Annotation } {
  if (at !== undefined) {
    const current = findAnnotation(sql, teacherId, bookId, id);
    if (current && current.updatedAt > at) return { newer: current };
  }
  return sql.exec("DELETE FROM annotations WHERE id = ? AND teacher_id = ? AND book_id = ?", id, teacherId, bookId).rowsWritten > 0;
}

/** Where a reading of every teacher's annotations stopped: the last one read, in export order. */
export type ExportCursor = { teacherId: number; bookId: number; page: number; id: number };

/**
 * Annotations of every teacher of the school (or of one), in teacher, book, page order, `limit` at
 * a time from after `cursor`: what a data export reads (docs/decisions/0044), a page per call so a
 * large school never crosses in one answer. Walks the (teacher_id, book_id, page) index.
 */
export function listForExport(
  sql: SqlStorage,
  input: { after: ExportCursor | null; teacherId?: number; limit: number },
): (Annotation & { teacherId: number; bookId: number })[] {
  const after = input.after ?? { teacherId: 0, bookId: 0, page: 0, id: 0 };
  const one = input.teacherId !== undefined;
  return sql
    .exec<Row & { teacher_id: number; book_id: number }>(
      `SELECT teacher_id, book_id, ${COLUMNS} FROM annotations
       WHERE (teacher_id, book_id, page, id) > (?, ?, ?, ?) ${one ? "AND teacher_id = ?" : ""}
       ORDER BY teacher_id, book_id, page, id LIMIT ?`,
      after.teacherId,
      after.bookId,
      after.page,
      after.id,
      ...(one ? [input.teacherId] : []),
      input.limit,
    )
    .toArray()
    .map((row) => ({ ...fromRow(row), teacherId: row.teacher_id, bookId: row.book_id }));
}
