/**
 * Reading a book as pages (docs/decisions/0013), for a teacher of a school that has the book or
 * an admin:
 *   GET /api/books/:id/pages            the page list: sizes, widths, which pages failed
 *   GET /api/books/:id/pages/:n?w=      page n as an image; teachers get it watermarked (below 1024: a 640 px preview;
 *                                       with saver=1, the data saver's smaller page, counted as read)
 *   GET /api/books/:id/pages/:n/text    page n's text runs with positions (the text layer)
 *   (either with `offline=<loanId>`: a page for the session's offline copy, spent but not counted as read; decision 50)
 *   GET /api/books/:id/outline          the contents, from the PDF's outline
 *   GET /api/books/:id/search?q=        the pages that hold a word, with snippets
 * The route reads the path and query with the shared schemas and answers; what may be read, the
 * budget, the stamp and the stored files are the reading service's (workers/reading/open-book.ts and its views).
 * Every answer is `private, no-store`; teachers' images and texts count against their budget.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type ReaderApiEnv, requireRole } from "../http/guards.ts";
import type { Outcome } from "../kernel/failure.ts";
import { parseInput, validate } from "../kernel/validate.ts";
import { bookOutline, pageText, SearchQuerySchema, searchBook } from "../reading/book-text.ts";
import { openBookPages } from "../reading/open-book.ts";
import { MAX_PAGE_WIDTH, pageImage } from "../reading/page-image.ts";
import type { PageAsk } from "../reading/page-view-gate.ts";
import { schoolObject } from "../school-object/objects.ts";
import { PageNumberTextSchema, paramOrNull, parseId, WidthTextSchema } from "../validation/schemas.ts";
import { NO_STORE, refused } from "./refused.ts";

type Env = ReaderApiEnv;

const WidthSchema = WidthTextSchema(MAX_PAGE_WIDTH);
/** The data saver's flag (docs/decisions/0048): `saver=1`, or left out. */
const SaverSchema = z.literal("1");

/** Whether the data saver was asked for: false when left out, null when malformed (refused with 400). */
function saverOf(raw: string | undefined): boolean | null {
  if (raw === undefined) return false;
  return SaverSchema.safeParse(raw).success ? true : null;
}

/** The book the path names (null: malformed, which the service answers as a book not found). */
function ask(c: Context<Env>): PageAsk {
  const ask: PageAsk = { context: c.var.context, reader: c.var.reader, bookId: parseId(c.req.param("id")) };
  // A page for the session's offline copy (docs/decisions/0050): the school's object checks the loan after the session.
  const loanId = c.req.query("offline");
  return loanId === undefined ? ask : { ...ask, offlineLoanId: loanId.slice(0, 64) };
}

/** The path's page number, or null when malformed. */
function pageNumber(c: Context<Env>): number | null {
  return paramOrNull(PageNumberTextSchema, c.req.param("n"));
}

/** The service's answer as JSON, or its failure. */
function answer<T extends object>(c: Context<Env>, result: Outcome<T>) {
  if (!result.ok) return refused(c, result.failure);
  return c.json(result.value, 200, NO_STORE);
}

// Guarded route by route: other routers share the /books mount.
const reader = requireRole("reader");

export const bookPagesApi = new Hono<Env>()
  .get("/:id/pages", reader, async (c) => answer(c, await openBookPages(ask(c))))
  .get("/:id/pages/:n", reader, async (c) => {
    const raw = c.req.query("w");
    const width = raw === undefined ? undefined : paramOrNull(WidthSchema, raw);
    const answered = await pageImage(ask(c), pageNumber(c), width, saverOf(c.req.query("saver")));
    if (!answered.ok) return refused(c, answered.failure);
    const image = answered.value;
    return new Response(image.body as BodyInit, {
      headers: {
        ...NO_STORE,
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Resource-Policy": "same-origin",
        "Content-Type": image.contentType,
        "Content-Length": String(image.length),
      },
    });
  })
  .get("/:id/pages/:n/text", reader, async (c) => answer(c, await pageText(ask(c), pageNumber(c))))
  // The teacher closed the reader: their seat of the book (a licence's seat limit) is free for the next.
  .delete("/:id/seat", requireRole("teacher"), async (c) => {
    const bookId = parseId(c.req.param("id"));
    if (!bookId) return c.json({ error: "Book not found" }, 404, NO_STORE);
    const { school, tokenHash } = c.var.teacher;
    await schoolObject(c.env, school.id).releaseSeat(school.id, { tokenHash, bookId });
    return c.body(null, 204, NO_STORE);
  })
  .get("/:id/outline", reader, async (c) => {
    const outline = await bookOutline(ask(c));
    return outline.ok ? c.json({ outline: outline.value }, 200, NO_STORE) : refused(c, outline.failure);
  })
  // The query is declared for the typed client; it is read (SearchQuerySchema) after the book, whose refusal comes first.
  .get("/:id/search", reader, validate("query", z.object({ q: z.string().optional() })), async (c) => {
    const parsed = parseInput(SearchQuerySchema, { q: c.req.valid("query").q ?? "" });
    const query = parsed.ok ? { ok: true as const, q: parsed.data.q } : { ok: false as const, error: parsed.error };
    return answer(c, await searchBook(ask(c), query));
  });
