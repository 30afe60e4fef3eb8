/**
 * A book's words as the renderer stored them in R2 (docs/decisions/0013, 0032): a page's text
 * layer, the outline, search over the pages, and a teacher's book as their annotations read it.
 * Each file is checked by its zod schema on the way out of storage. Opened by open-book.ts, spent
 * by spend-page.ts, answered through the gate (page-view-gate.ts).
 */
import { z } from "zod";
import { type OutlineItem, OutlineSchema, type PageText, PageTextSchema } from "../page-images/page-content.ts";
import { outlineKey, pageTextKey, searchTextKey } from "../page-images/page-keys.ts";
import { type SearchResult, searchPages } from "../page-images/page-search.ts";
import { goneFromR2, open, pageOf, STALE, withFreshRetry } from "./open-book.ts";
import { type PageAsk, Refusal, throughGate } from "./page-view-gate.ts";
import { spend } from "./spend-page.ts";

/** A JSON file the renderer stored, checked by its schema (what R2 holds was checked on arrival; this keeps the types honest). */
async function readStored<Schema extends z.ZodType>(bucket: R2Bucket, key: string, schema: Schema): Promise<z.output<Schema> | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const parsed = schema.safeParse(await object.json());
  if (!parsed.success) throw new Error(`Stored ${key} does not match its schema`);
  return parsed.data;
}

/** A teacher's book as their annotations need it (docs/decisions/0032): which book, its pages, and a page's stored text. */
export interface TeacherBook {
  bookId: number;
  pageCount: number;
  schoolId: number;
  tokenHash: string;
  /** The licence's seat limit (null: none): a call that answers the book's words takes or needs a seat as a page does. */
  seats: number | null;
  /** Page n's runs as stored (null: the page failed or its text is gone). */
  readText(n: number): Promise<PageText | null>;
}

/** The book as a teacher may read it now (their school's, licensed, its pages ready), or the reader's refusal for it. */
export function openForTeacher(ask: PageAsk): Promise<TeacherBook | Refusal> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (opened instanceof Refusal) return opened;
    const { set, book, pages } = opened;
    if (reader.kind !== "teacher") return new Refusal(404, "Book not found");
    return {
      bookId: book.id,
      pageCount: set.pageCount ?? pages.size,
      schoolId: reader.schoolId,
      tokenHash: reader.tokenHash,
      seats: opened.seats,
      async readText(n) {
        const page = pages.get(n);
        if (!page || page.error !== null) return null;
        return readStored(ask.context.env.BOOKS, pageTextKey(book.id, set.id, n), PageTextSchema);
      },
    };
  });
}

/** The book's contents, from the PDF's outline (empty when it has none). */
export function bookOutline(ask: PageAsk): Promise<OutlineItem[] | Refusal> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (opened instanceof Refusal) return opened;
    if (!opened.set.hasOutline) return [];
    return (await readStored(ask.context.env.BOOKS, outlineKey(opened.book.id, opened.set.id), OutlineSchema)) ?? [];
  });
}

/** Page `n`'s text runs with their positions (the text layer); a page of the budget. */
export function pageText(ask: PageAsk, n: number | null): Promise<({ n: number } & PageText) | Refusal> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh) => {
      const opened = await open(ask, reader, fresh);
      if (opened instanceof Refusal) return opened;
      const page = pageOf(opened, n);
      if (page instanceof Refusal) return page;
      const spent = await spend(opened, false);
      if (spent === STALE || spent instanceof Refusal) return spent;
      const text = await readStored(ask.context.env.BOOKS, pageTextKey(opened.book.id, opened.set.id, page.n), PageTextSchema);
      if (!text) return goneFromR2(opened) ?? new Refusal(404, "This page has no text.");
      return { n: page.n, ...text };
    }),
  );
}

export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, "Type something to search for").max(100, "Search for at most 100 characters"),
});

const SearchTextSchema = z.array(z.string());

/**
 * The pages that hold a word, with snippets. Snippets are text of the book too: a search costs a
 * page of the budget, so queries cannot scrape it. `query` is parsed by the route (SearchQuerySchema);
 * a refusal of it (`invalid`) comes after the book's own, as every malformed part of a page view does.
 */
export function searchBook(
  ask: PageAsk,
  query: { ok: true; q: string } | { ok: false; error: string },
): Promise<{ query: string; results: SearchResult[]; total: number } | Refusal> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh) => {
      const opened = await open(ask, reader, fresh);
      if (opened instanceof Refusal) return opened;
      if (!query.ok) return new Refusal(400, query.error);
      const spent = await spend(opened, false);
      if (spent === STALE || spent instanceof Refusal) return spent;
      const texts = (await readStored(ask.context.env.BOOKS, searchTextKey(opened.book.id, opened.set.id), SearchTextSchema)) ?? [];
      const { results, total } = searchPages(texts, query.q);
      return { query: query.q, results, total };
    }),
  );
}
