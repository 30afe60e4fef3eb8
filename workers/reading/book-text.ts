/**
 * A book's words as the renderer stored them in R2 (docs/decisions/0013, 0032): a page's text
 * layer, the outline, search over the pages, and a teacher's book as their annotations read it.
 * Each file is checked by its zod schema on the way out of storage. Opened by open-book.ts, spent
 * by spend-page.ts, answered through the gate (page-view-gate.ts).
 */
import { z } from "zod";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { type OutlineItem, OutlineSchema, type PageText, PageTextSchema } from "../page-images/page-content.ts";
import { outlineKey, pageTextKey, searchTextKey } from "../page-images/page-keys.ts";
import { type SearchResult, searchPages } from "../page-images/page-search.ts";
import { goneFromR2, open, pageOf, STALE, withFreshRetry } from "./open-book.ts";
import { type PageAsk, throughGate } from "./page-view-gate.ts";
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

/** The book as a teacher may read it now (their school's, licensed, its pages ready), or why the reader may not. */
export function openForTeacher(ask: PageAsk): Promise<Outcome<TeacherBook>> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (!opened.ok) return opened;
    const { set, book, pages, seats } = opened.value;
    if (reader.kind !== "teacher") return failure("not-found", "Book not found");
    return done({
      bookId: book.id,
      pageCount: set.pageCount ?? pages.size,
      schoolId: reader.schoolId,
      tokenHash: reader.tokenHash,
      seats,
      async readText(n) {
        const page = pages.get(n);
        if (!page || page.error !== null) return null;
        return readStored(ask.context.env.BOOKS, pageTextKey(book.id, set.id, n), PageTextSchema);
      },
    });
  });
}

/** The book's contents, from the PDF's outline (empty when it has none). */
export function bookOutline(ask: PageAsk): Promise<Outcome<OutlineItem[]>> {
  return throughGate(ask, async (reader) => {
    const opened = await open(ask, reader, true);
    if (!opened.ok) return opened;
    const { book, set } = opened.value;
    if (!set.hasOutline) return done([]);
    return done((await readStored(ask.context.env.BOOKS, outlineKey(book.id, set.id), OutlineSchema)) ?? []);
  });
}

/** Page `n`'s text runs with their positions (the text layer); a page of the budget. */
export function pageText(ask: PageAsk, n: number | null): Promise<Outcome<{ n: number } & PageText>> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh): Promise<Outcome<{ n: number } & PageText> | typeof STALE> => {
      const opening = await open(ask, reader, fresh);
      if (!opening.ok) return opening;
      const opened = opening.value;
      const page = pageOf(opened, n);
      if (!page.ok) return page;
      const spent = await spend(opened, false);
      if (spent === STALE || !spent.ok) return spent;
      const text = await readStored(ask.context.env.BOOKS, pageTextKey(opened.book.id, opened.set.id, page.value.n), PageTextSchema);
      if (!text) return goneFromR2(opened) ?? failure("not-found", "This page has no text.");
      return done({ n: page.value.n, ...text });
    }),
  );
}

export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, "Type something to search for").max(100, "Search for at most 100 characters"),
});

const SearchTextSchema = z.array(z.string());

type SearchAnswer = { query: string; results: SearchResult[]; total: number };

/**
 * The pages that hold a word, with snippets. Snippets are text of the book too: a search costs a
 * page of the budget, so queries cannot scrape it. `query` is parsed by the route (SearchQuerySchema);
 * its failure (`invalid`) comes after the book's own, as every malformed part of a page view does.
 */
export function searchBook(ask: PageAsk, query: { ok: true; q: string } | { ok: false; error: string }): Promise<Outcome<SearchAnswer>> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh): Promise<Outcome<SearchAnswer> | typeof STALE> => {
      const opening = await open(ask, reader, fresh);
      if (!opening.ok) return opening;
      const opened = opening.value;
      if (!query.ok) return failure("invalid", query.error);
      const spent = await spend(opened, false);
      if (spent === STALE || !spent.ok) return spent;
      const texts = (await readStored(ask.context.env.BOOKS, searchTextKey(opened.book.id, opened.set.id), SearchTextSchema)) ?? [];
      const { results, total } = searchPages(texts, query.q);
      return done({ query: query.q, results, total });
    }),
  );
}
