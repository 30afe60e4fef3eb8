/**
 * A teacher's bookmarks, highlights and notes of a book (docs/decisions/0032), mounted at /api/books:
 *   GET    /:id/annotations                 every annotation of the book, in page order
 *   POST   /:id/annotations                 { kind: "bookmark" | "highlight" | "note", page, ... } → 201
 *   PATCH  /:id/annotations/:annotationId   a bookmark's label, a note's text, a highlight's colour and note
 *   DELETE /:id/annotations/:annotationId   → 204
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
import { noSeatMessage } from "#shared/rules/licence.ts";
import { books } from "../db/schema.ts";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { parseInput, readJsonBody } from "../kernel/validate.ts";
import { openForTeacher, type TeacherBook } from "../reading/book-text.ts";
import { readingLimitMessage } from "../reading/page-budget.ts";
import { Refusal } from "../reading/page-view-gate.ts";
import { readRefusal } from "../reading/spend-page.ts";
import { type Annotation, HIGHLIGHT_COLOURS, MAX_ANNOTATIONS_PER_BOOK, type NewAnnotation } from "../school-object/annotations.ts";
import { schoolObject } from "../school-object/objects.ts";
import type { AnnotationAnswer, Withheld } from "../school-object/school-object.ts";
import { parseId } from "../validation/schemas.ts";
import { NO_STORE, refused } from "./refused.ts";

export const ANNOTATION_NOT_FOUND = "Annotation not found";
export const BOOK_FULL = `You can keep at most ${MAX_ANNOTATIONS_PER_BOOK.toLocaleString("en-US")} bookmarks, highlights and notes in one book. Delete some to add more.`;
/** The most characters one highlight covers (a sentence or a paragraph, not a page). */
export const MAX_HIGHLIGHT_CHARS = 1_000;
/** How much of each highlight the Markdown export carries. */
export const EXPORT_HIGHLIGHT_CHARS = 200;

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

const CreateSchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("bookmark"), page: Page, label: Label.optional() }),
    z.strictObject({
      kind: z.literal("highlight"),
      page: Page,
      colour: Colour.default("yellow"),
      start: Point,
      end: Point,
      note: NoteText.optional(),
    }),
    z.strictObject({ kind: z.literal("note"), page: Page, note: NoteText }),
  ],
  { error: 'The kind must be "bookmark", "highlight" or "note"' },
);

const PatchSchema = z
  .strictObject({ label: Label.nullable().optional(), note: NoteText.nullable().optional(), colour: Colour.optional() })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: "Send the label, note or colour to change" });

type Env = TeacherApiEnv;

/** The book of the path as the teacher may read it now, or the reader's refusal (404 for another school's, or a malformed id). */
function teacherBook(c: Context<Env>): Promise<TeacherBook | Refusal> {
  const bookId = parseId(c.req.param("id"));
  return openForTeacher({ context: c.var.context, reader: { kind: "teacher", teacher: c.var.teacher }, bookId });
}

/** The school object's answer: its value, or its refusal as the API answers it. */
function fromObject<Value>(answer: AnnotationAnswer<Value>): Value | Refusal {
  switch (answer.status) {
    case "ok":
      return answer.value;
    case "none":
    case "disabled":
    case "limit":
    case "no-seat":
      // As a page answers it.
      return readRefusal(answer);
    case "full":
      return new Refusal(409, BOOK_FULL);
    case "not-found":
      return new Refusal(404, ANNOTATION_NOT_FOUND);
    case "invalid":
      return new Refusal(400, answer.error);
  }
}

/** The request's JSON body checked by `schema` (parseInput: depth, control characters, the schema), or the 400. */
async function jsonBody<Schema extends z.ZodType>(c: Context<Env>, schema: Schema): Promise<z.output<Schema> | Refusal> {
  // Decoded strictly whatever its Content-Type: bytes that are not UTF-8 are refused, not stored as U+FFFD.
  const body = await readJsonBody(c.req);
  if (!body.ok) return new Refusal(400, body.error);
  const parsed = parseInput(schema, body.value);
  return parsed.ok ? parsed.data : new Refusal(400, parsed.error, parsed.field ? { field: parsed.field } : {});
}

/** The teacher's annotations of the book, their highlights' words paid for (budget and seat) or withheld by the object. */
async function listed(c: Context<Env>, book: TeacherBook): Promise<{ annotations: Annotation[]; withheld: Withheld | null } | Refusal> {
  const args = { tokenHash: book.tokenHash, bookId: book.bookId, pageCount: book.pageCount, seats: book.seats };
  return fromObject(await schoolObject(c.env, book.schoolId).annotations(book.schoolId, args));
}

/** A new annotation from the checked body: a highlight's range checked against the page's runs, and its text read from them. */
async function newAnnotation(book: TeacherBook, input: z.output<typeof CreateSchema>): Promise<NewAnnotation | Refusal> {
  if (input.page > book.pageCount) return new Refusal(400, `This book has ${book.pageCount} pages`);
  const base = { kind: input.kind, page: input.page, label: null, note: null, colour: null, start: null, end: null, text: null };
  if (input.kind === "bookmark") return { ...base, label: input.label ?? null };
  if (input.kind === "note") return { ...base, note: input.note };
  const text = await book.readText(input.page);
  if (!text) return new Refusal(400, "This page has no text to highlight.");
  if (!validRange(text.runs, input.start, input.end)) return new Refusal(400, "The highlight's start and end are not text of this page.");
  const highlighted = rangeText(text.runs, input.start, input.end);
  if (!highlighted) return new Refusal(400, "Select some text to highlight.");
  if (highlighted.length > MAX_HIGHLIGHT_CHARS)
    return new Refusal(400, `A highlight can cover at most ${MAX_HIGHLIGHT_CHARS.toLocaleString("en-US")} characters. Select less text.`);
  return { ...base, colour: input.colour, start: input.start, end: input.end, text: highlighted, note: input.note ?? null };
}

/** Why the words were withheld, as the list says it (`textWithheld`). */
function withheldMessage(withheld: Withheld): string {
  return withheld.reason === "limit" ? readingLimitMessage(withheld.waitMs) : noSeatMessage(withheld.seats);
}

const EXPORT_WITHHELD: Record<Withheld["reason"], string> = {
  limit: "(the highlighted text is left out: you have reached the reading limit for this book)",
  "no-seat": "(the highlighted text is left out: every copy of this book is in use at your school)",
};

/** The teacher's annotations as Markdown: notes whole, highlights cut to EXPORT_HIGHLIGHT_CHARS (or left out, and why). */
export function annotationsMarkdown(
  title: string,
  annotations: Annotation[],
  withheld: Withheld["reason"] | null,
  now = Date.now(),
): string {
  const day = new Date(now).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  const lines = [`# ${title}: my notes`, "", `Exported from Lectern on ${day}.`];
  if (annotations.length === 0) lines.push("", "You have no bookmarks, highlights or notes in this book yet.");
  const indent = (text: string) => text.replace(/\n/g, "\n  ");
  let page = 0;
  for (const a of annotations) {
    if (a.page !== page) {
      page = a.page;
      lines.push("", `## Page ${page}`, "");
    }
    if (a.kind === "bookmark") lines.push(`- Bookmark${a.label ? `: ${a.label}` : ""}`);
    if (a.kind === "note") lines.push(`- Note: ${indent(a.note ?? "")}`);
    if (a.kind === "highlight") {
      const text = a.text ?? "";
      const quoted = withheld
        ? EXPORT_WITHHELD[withheld]
        : `“${text.length > EXPORT_HIGHLIGHT_CHARS ? `${text.slice(0, EXPORT_HIGHLIGHT_CHARS - 1).trimEnd()}…` : text}”`;
      lines.push(`- Highlight (${a.colour}): ${quoted}`);
      if (a.note) lines.push(`  Note: ${indent(a.note)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

const guard = requireRole("teacher");

export const annotationsApi = new Hono<Env>()
  .get("/:id/annotations", guard, async (c) => {
    const book = await teacherBook(c);
    if (book instanceof Refusal) return refused(c, book);
    const list = await listed(c, book);
    if (list instanceof Refusal) return refused(c, list);
    const { annotations, withheld } = list;
    return c.json({ annotations, ...(withheld ? { textWithheld: withheldMessage(withheld) } : {}) }, 200, NO_STORE);
  })
  .get("/:id/annotations/export", guard, async (c) => {
    const book = await teacherBook(c);
    if (book instanceof Refusal) return refused(c, book);
    const [list, [row]] = await Promise.all([
      listed(c, book),
      c.var.context.db.select({ title: books.title }).from(books).where(eq(books.id, book.bookId)),
    ]);
    if (list instanceof Refusal) return refused(c, list);
    const title = row?.title ?? "Book";
    const name =
      title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")
        .slice(0, 60) || "book";
    return c.body(annotationsMarkdown(title, list.annotations, list.withheld?.reason ?? null), 200, {
      ...NO_STORE,
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="lectern-notes-${name}.md"`,
      "X-Content-Type-Options": "nosniff",
    });
  })
  .post("/:id/annotations", guard, async (c) => {
    const book = await teacherBook(c);
    if (book instanceof Refusal) return refused(c, book);
    const input = await jsonBody(c, CreateSchema);
    if (input instanceof Refusal) return refused(c, input);
    const annotation = await newAnnotation(book, input);
    if (annotation instanceof Refusal) return refused(c, annotation);
    const made = fromObject(
      await schoolObject(c.env, book.schoolId).annotate(book.schoolId, {
        tokenHash: book.tokenHash,
        bookId: book.bookId,
        pageCount: book.pageCount,
        seats: book.seats,
        annotation,
      }),
    );
    if (made instanceof Refusal) return refused(c, made);
    return c.json({ annotation: made }, 201, NO_STORE);
  })
  .patch("/:id/annotations/:annotationId", guard, async (c) => {
    const book = await teacherBook(c);
    if (book instanceof Refusal) return refused(c, book);
    const id = parseId(c.req.param("annotationId"));
    if (!id) return c.json({ error: ANNOTATION_NOT_FOUND }, 404, NO_STORE);
    const patch = await jsonBody(c, PatchSchema);
    if (patch instanceof Refusal) return refused(c, patch);
    const changed = fromObject(
      await schoolObject(c.env, book.schoolId).editAnnotation(book.schoolId, { tokenHash: book.tokenHash, bookId: book.bookId, id, patch }),
    );
    if (changed instanceof Refusal) return refused(c, changed);
    return c.json({ annotation: changed }, 200, NO_STORE);
  })
  .delete("/:id/annotations/:annotationId", guard, async (c) => {
    const book = await teacherBook(c);
    if (book instanceof Refusal) return refused(c, book);
    const id = parseId(c.req.param("annotationId"));
    if (!id) return c.json({ error: ANNOTATION_NOT_FOUND }, 404, NO_STORE);
    const removed = fromObject(
      await schoolObject(c.env, book.schoolId).removeAnnotation(book.schoolId, { tokenHash: book.tokenHash, bookId: book.bookId, id }),
    );
    if (removed instanceof Refusal) return refused(c, removed);
    return c.body(null, 204, NO_STORE);
  });
