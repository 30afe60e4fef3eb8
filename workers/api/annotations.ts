/**
 * A teacher's bookmarks, highlights and notes of a book (docs/decisions/0032), mounted at /api/books:
 *   GET    /:id/annotations                 every annotation of the book, in page order
 *   POST   /:id/annotations                 { kind: "bookmark" | "highlight" | "note", page, ..., clientId? } → 201
 *                                           (200 with `replayed: true`: the same clientId made it before)
 *   PATCH  /:id/annotations/:annotationId   a bookmark's label, a note's text, a highlight's colour and note; editedAt?
 *   DELETE /:id/annotations/:annotationId   → 204; ?editedAt=
 * Work done offline (docs/decisions/0051): `clientId` is the idempotency key of a create; `editedAt`
 * (ms, not ahead of the server beyond a little skew nor older than an offline copy can be) orders
 * changes: the later edit wins, and a change or deletion older than the annotation's last change is
 * 409 `edited-elsewhere` with the annotation as kept (without a highlight's words).
 *   GET    /:id/annotations/export          the teacher's notes as Markdown (at most 200 characters of each highlight)
 * Only the teacher's own, of a book their school may read now: another school's book is 404 as the
 * reader answers it, another teacher's annotation is 404 like one that does not exist. They live in
 * the school's object; no D1 write. A highlight's text is read from the page's stored runs, never
 * taken from the request, and reading it back is reading the book: pages of the reading budget and,
 * where the licence limits them, a seat (a highlight made without one is 409 `no-seat` as a page is;
 * a list or export without one withholds the words). A change answers without the words.
 */
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { rangeText, validRange } from "#shared/annotation-geometry.ts";
import { DELETE_EDITED_ELSEWHERE, EDITED_ELSEWHERE, EDITED_ELSEWHERE_STATUS, editTimeRefusal } from "#shared/rules/offline-sync.ts";
import { books } from "../db/schema.ts";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import type { JsonInput } from "../http/run-command.ts";
import { done, type Failure, failure, type Outcome } from "../kernel/failure.ts";
import { parseInput, readJsonBody } from "../kernel/validate.ts";
import { openForTeacher, type TeacherBook } from "../reading/book-text.ts";
import { annotationsMarkdown, fileSlug, type WithheldReason } from "../reading/notes-markdown.ts";
import type { AnnotationList, ChangedAnnotation } from "../school-object/annotation-calls.ts";
import { HIGHLIGHT_COLOURS, type NewAnnotation } from "../school-object/annotations.ts";
import { schoolObject } from "../school-object/objects.ts";
import { ANNOTATION_NOT_FOUND } from "../school-object/refusals.ts";
import { parseId } from "../validation/schemas.ts";
import { NO_STORE, refused } from "./refused.ts";
/** The most characters one highlight covers (a sentence or a paragraph, not a page). */
export const MAX_HIGHLIGHT_CHARS = 1_000;

const Page = z
  .int("The page must be a whole number from 1")
  .min(1, "The page must be a whole number from 1")
  .max(1_000_000, "The page is out of range");
const Point = z.strictObject({
  run: z
    .int("A highlight's run must be a whole number")
    .min(0, "A highlight's run must be 0 or more")
    .max(50_000, "A highlight's run is out of range"),
  offset: z
    .int("A highlight's offset must be a whole number")
    .min(0, "A highlight's offset must be 0 or more")
    .max(10_000, "A highlight's offset is out of range"),
});
const Label = z
  .string("The label must be text")
  .trim()
  .max(100, "A bookmark's label can have at most 100 characters")
  .transform((label) => label || null);
const NoteText = z
  .string("The note must be text")
  .trim()
  .min(1, "Write the note, or delete it.")
  .max(2_000, "A note can have at most 2,000 characters");
const Colour = z.enum(HIGHLIGHT_COLOURS, { error: "The colour must be yellow, green, blue or pink" });
/** The client's idempotency key for a create (crypto.randomUUID()). */
const ClientId = z.uuid("The client id must be a UUID").optional();
/** When the client made the change (ms); its bounds are checked against the clock by editTimeRefusal. */
const EditedAt = z.int("The edit time must be a whole number of milliseconds").optional();

const CreateSchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("bookmark"), page: Page, label: Label.optional(), clientId: ClientId }),
    z.strictObject({
      kind: z.literal("highlight"),
      page: Page,
      colour: Colour.default("yellow"),
      start: Point,
      end: Point,
      note: NoteText.optional(),
      clientId: ClientId,
    }),
    z.strictObject({ kind: z.literal("note"), page: Page, note: NoteText, clientId: ClientId }),
  ],
  { error: 'The kind must be "bookmark", "highlight" or "note"' },
);

const PatchSchema = z
  .strictObject({ label: Label.nullable().optional(), note: NoteText.nullable().optional(), colour: Colour.optional(), editedAt: EditedAt })
  .refine(({ editedAt: _at, ...patch }) => Object.values(patch).some((value) => value !== undefined), {
    error: "Send the label, note or colour to change",
  });
const DeleteQuery = z.object({
  editedAt: z.coerce.number().pipe(z.int("The edit time must be a whole number of milliseconds")).optional(),
});

/** The edit time refused for being in the future or too old, as a failure; null when absent or within bounds. */
function editTimeFailure(editedAt: number | undefined): Failure | null {
  const refusal = editedAt === undefined ? null : editTimeRefusal(editedAt, Date.now());
  return refusal ? { kind: "invalid", error: refusal, field: "editedAt" } : null;
}

/** An offline change that lost to a later one: 409, with the annotation as kept so the client can show both. */
const editedElsewhere = (error: string, annotation: ChangedAnnotation): Failure => ({
  kind: "conflict",
  error,
  details: { status: EDITED_ELSEWHERE_STATUS, annotation },
});

type Env = TeacherApiEnv;

/** The book of the path as the teacher may read it now, or the reader's failure (not-found for another school's, or a malformed id). */
function teacherBook(c: Context<Env>): Promise<Outcome<TeacherBook>> {
  const bookId = parseId(c.req.param("id"));
  return openForTeacher({ context: c.var.context, reader: { kind: "teacher", teacher: c.var.teacher }, bookId });
}

/** The request's JSON body checked by `schema` (parseInput: depth, control characters, the schema), or why not (`invalid`, with the field). */
async function jsonBody<Schema extends z.ZodType>(c: Context<Env>, schema: Schema): Promise<Outcome<z.output<Schema>>> {
  // Decoded strictly whatever its Content-Type: bytes that are not UTF-8 are refused, not stored as U+FFFD.
  const body = await readJsonBody(c.req);
  if (!body.ok) return failure("invalid", body.error);
  const parsed = parseInput(schema, body.value);
  return parsed.ok ? done(parsed.data) : failure("invalid", parsed.error, parsed.field);
}

/** The teacher's annotations of the book, their highlights' words paid for (budget and seat) or withheld by the object. */
async function listed(c: Context<Env>, book: TeacherBook): Promise<Outcome<AnnotationList>> {
  const args = { tokenHash: book.tokenHash, bookId: book.bookId, pageCount: book.pageCount, seats: book.seats };
  return schoolObject(c.env, book.schoolId).annotations(book.schoolId, args);
}

/** A new annotation from the checked body: a highlight's range checked against the page's runs, and its text read from them. */
async function newAnnotation(book: TeacherBook, input: z.output<typeof CreateSchema>): Promise<Outcome<NewAnnotation>> {
  if (input.page > book.pageCount) return failure("invalid", `This book has ${book.pageCount} pages`);
  const base = { kind: input.kind, page: input.page, label: null, note: null, colour: null, start: null, end: null, text: null } as const;
  if (input.kind === "bookmark") return done({ ...base, label: input.label ?? null });
  if (input.kind === "note") return done({ ...base, note: input.note });
  const text = await book.readText(input.page);
  if (!text) return failure("invalid", "This page has no text to highlight.");
  if (!validRange(text.runs, input.start, input.end)) return failure("invalid", "The highlight's start and end are not text of this page.");
  const highlighted = rangeText(text.runs, input.start, input.end);
  if (!highlighted) return failure("invalid", "Select some text to highlight.");
  if (highlighted.length > MAX_HIGHLIGHT_CHARS)
    return failure("invalid", `A highlight can cover at most ${MAX_HIGHLIGHT_CHARS.toLocaleString("en-US")} characters. Select less text.`);
  return done({ ...base, colour: input.colour, start: input.start, end: input.end, text: highlighted, note: input.note ?? null });
}

/** Why the export leaves the words out: the budget spent (`throttled`) or every seat held (`conflict`). */
const withheldReason = (withheld: Failure): WithheldReason => (withheld.kind === "throttled" ? "limit" : "no-seat");

const guard = requireRole("teacher");
/** A malformed annotation id: like one that does not exist. */
const NOT_FOUND: Failure = { kind: "not-found", error: ANNOTATION_NOT_FOUND };

export const annotationsApi = new Hono<Env>()
  .get("/:id/annotations", guard, async (c) => {
    const book = await teacherBook(c);
    if (!book.ok) return refused(c, book.failure);
    const list = await listed(c, book.value);
    if (!list.ok) return refused(c, list.failure);
    const { annotations, withheld } = list.value;
    // The list says why the words were left out in the object's own sentence.
    return c.json({ annotations, ...(withheld ? { textWithheld: withheld.error } : {}) }, 200, NO_STORE);
  })
  .get("/:id/annotations/export", guard, async (c) => {
    const book = await teacherBook(c);
    if (!book.ok) return refused(c, book.failure);
    const [list, [row]] = await Promise.all([
      listed(c, book.value),
      c.var.context.db.select({ title: books.title }).from(books).where(eq(books.id, book.value.bookId)),
    ]);
    if (!list.ok) return refused(c, list.failure);
    const title = row?.title ?? "Book";
    const name = fileSlug(title, "book");
    const { annotations, withheld } = list.value;
    return c.body(annotationsMarkdown(title, annotations, withheld ? withheldReason(withheld) : null), 200, {
      ...NO_STORE,
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="lectern-notes-${name}.md"`,
      "X-Content-Type-Options": "nosniff",
    });
  })
  // The body is declared to Hono (for the typed client) and read here, by jsonBody, whatever its Content-Type.
  .post("/:id/annotations", guard, async (c: Context<Env, string, JsonInput<z.input<typeof CreateSchema>>>) => {
    const opened = await teacherBook(c);
    if (!opened.ok) return refused(c, opened.failure);
    const book = opened.value;
    const input = await jsonBody(c, CreateSchema);
    if (!input.ok) return refused(c, input.failure);
    const { clientId, ...fields } = input.value;
    const annotation = await newAnnotation(book, fields);
    if (!annotation.ok) return refused(c, annotation.failure);
    const made = await schoolObject(c.env, book.schoolId).annotate(book.schoolId, {
      tokenHash: book.tokenHash,
      bookId: book.bookId,
      pageCount: book.pageCount,
      seats: book.seats,
      annotation: annotation.value,
      ...(clientId ? { clientId } : {}),
    });
    if (!made.ok) return refused(c, made.failure);
    const { annotation: kept, replayed, withheld } = made.value;
    if (!replayed) return c.json({ annotation: kept }, 201, NO_STORE);
    // The same client id again: the first annotation, not a second one.
    return c.json({ annotation: kept, replayed: true, ...(withheld ? { textWithheld: withheld.error } : {}) }, 200, NO_STORE);
  })
  .patch("/:id/annotations/:annotationId", guard, async (c: Context<Env, string, JsonInput<z.input<typeof PatchSchema>>>) => {
    const book = await teacherBook(c);
    if (!book.ok) return refused(c, book.failure);
    const id = parseId(c.req.param("annotationId"));
    if (!id) return refused(c, NOT_FOUND);
    const body = await jsonBody(c, PatchSchema);
    if (!body.ok) return refused(c, body.failure);
    const { editedAt, ...patch } = body.value;
    const badTime = editTimeFailure(editedAt);
    if (badTime) return refused(c, badTime);
    const { schoolId, tokenHash, bookId } = book.value;
    const changed = await schoolObject(c.env, schoolId).editAnnotation(schoolId, { tokenHash, bookId, id, patch, editedAt });
    if (!changed.ok) return refused(c, changed.failure);
    if (!changed.value.applied) return refused(c, editedElsewhere(EDITED_ELSEWHERE, changed.value.annotation));
    return c.json({ annotation: changed.value.annotation }, 200, NO_STORE);
  })
  .delete("/:id/annotations/:annotationId", guard, async (c) => {
    const book = await teacherBook(c);
    if (!book.ok) return refused(c, book.failure);
    const id = parseId(c.req.param("annotationId"));
    if (!id) return refused(c, NOT_FOUND);
    const query = parseInput(DeleteQuery, c.req.query());
    if (!query.ok) return refused(c, { kind: "invalid", error: query.error, ...(query.field ? { field: query.field } : {}) });
    const { editedAt } = query.data;
    const badTime = editTimeFailure(editedAt);
    if (badTime) return refused(c, badTime);
    const { schoolId, tokenHash, bookId } = book.value;
    const removed = await schoolObject(c.env, schoolId).removeAnnotation(schoolId, { tokenHash, bookId, id, editedAt });
    if (!removed.ok) return refused(c, removed.failure);
    if (removed.value) return refused(c, editedElsewhere(DELETE_EDITED_ELSEWHERE, removed.value));
    return c.body(null, 204, NO_STORE);
  });
