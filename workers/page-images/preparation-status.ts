/**
 * What the console shows of the platform's page preparation (docs/decisions/0039): one book's pages
 * (the book page's panel), every book being prepared with the recent outcomes (the Preparation
 * page), and the current admin's new outcomes (the console's banner). Each is one round trip to D1
 * (a batch where it is two statements), polled while something is being prepared.
 */
import { and, asc, desc, eq, gt, gte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { admins, type Book, books, pageSetPages, pageSets, preparationNotices } from "../db/schema.ts";

/** How long outcomes are shown (and kept: preparation_notices). */
export const NOTICE_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;
/** The banner's first look (nothing dismissed in this browser yet) goes back this far. */
export const FIRST_LOOK_MS = DAY_MS;
/** The most failed pages listed per book (the count is always whole). */
export const LISTED_FAILURES = 50;
/** The most books listed as being prepared, and the most outcomes. */
const MAX_PREPARING = 200;
const MAX_NOTICES = 50;
const MAX_NEW_NOTICES = 20;

export type PageFailure = { n: number; error: string };

/** A page set as the panel reads it: the pages stored (`done`) and failed, with reasons. */
export interface SetPages {
  id: string;
  status: "preparing" | "ready";
  pageCount: number | null;
  done: number[];
  failed: PageFailure[];
}

export interface PreparingSet extends SetPages {
  startedAt: number;
  startedBy: string | null;
  /** The set is for a PDF uploaded since (cancelling discards it); else for the book's own PDF. */
  newPdf: boolean;
}

export interface Outcome {
  outcome: "ready" | "refused";
  pageCount: number | null;
  failedPages: number;
  message: string | null;
  at: number;
}

export interface BookPreparation {
  ready: SetPages | null;
  preparing: PreparingSet | null;
  hasPdf: boolean;
  /** The book's latest outcome within NOTICE_DAYS. */
  latest: Outcome | null;
}

const outcomeColumns = {
  outcome: preparationNotices.outcome,
  pageCount: preparationNotices.pageCount,
  failedPages: preparationNotices.failedPages,
  message: preparationNotices.message,
  at: preparationNotices.createdAt,
};

/** A book's ready and preparing sets with their pages, and its latest outcome: two statements, one batch. */
export async function bookPreparation(db: Db, book: Pick<Book, "id" | "pageSetId" | "pdfKey">, now = Date.now()): Promise<BookPreparation> {
  const [rows, [latest]] = await db.batch([
    db
      .select({
        id: pageSets.id,
        status: pageSets.status,
        pageCount: pageSets.pageCount,
        startedAt: pageSets.createdAt,
        startedBy: admins.name,
        pdfKey: pageSets.pdfKey,
        n: pageSetPages.n,
        error: pageSetPages.error,
      })
      .from(pageSets)
      .leftJoin(admins, eq(admins.id, pageSets.startedBy))
      .leftJoin(pageSetPages, eq(pageSetPages.setId, pageSets.id))
      .where(
        and(
          eq(pageSets.bookId, book.id),
          book.pageSetId ? or(eq(pageSets.status, "preparing"), eq(pageSets.id, book.pageSetId)) : eq(pageSets.status, "preparing"),
        ),
      )
      .orderBy(asc(pageSetPages.n)),
    db
      .select(outcomeColumns)
      .from(preparationNotices)
      .where(and(eq(preparationNotices.bookId, book.id), gte(preparationNotices.createdAt, now - NOTICE_DAYS * DAY_MS)))
      .orderBy(desc(preparationNotices.id))
      .limit(1),
  ]);
  const sets = new Map<string, PreparingSet>();
  for (const row of rows) {
    let set = sets.get(row.id);
    if (!set) {
      set = {
        id: row.id,
        status: row.status,
        pageCount: row.pageCount,
        done: [],
        failed: [],
        startedAt: row.startedAt,
        startedBy: row.startedBy,
        newPdf: row.pdfKey !== book.pdfKey,
      };
      sets.set(row.id, set);
    }
    if (row.n === null) continue;
    if (row.error === null) set.done.push(row.n);
    else set.failed.push({ n: row.n, error: row.error });
  }
  const all = [...sets.values()];
  const readySet = all.find((set) => set.status === "ready" && set.id === book.pageSetId);
  const preparing = all.find((set) => set.status === "preparing") ?? null;
  return {
    ready: readySet
      ? { id: readySet.id, status: readySet.status, pageCount: readySet.pageCount, done: readySet.done, failed: readySet.failed }
      : null,
    preparing,
    hasPdf: Boolean(book.pdfKey),
    latest: latest ?? null,
  };
}

/** Why a book that is gone went, when its PDF was refused (a book added with a PDF goes with it). */
export async function refusalOfRemovedBook(db: Db, bookId: number, now = Date.now()): Promise<string | null> {
  const [notice] = await db
    .select({ message: preparationNotices.message })
    .from(preparationNotices)
    .where(
      and(
        eq(preparationNotices.bookId, bookId),
        eq(preparationNotices.outcome, "refused"),
        gte(preparationNotices.createdAt, now - NOTICE_DAYS * DAY_MS),
      ),
    )
    .orderBy(desc(preparationNotices.id))
    .limit(1);
  return notice ? (notice.message ?? "Its PDF was refused.") : null;
}

export interface PreparingBook {
  bookId: number;
  setId: string;
  title: string;
  pageCount: number | null;
  done: number;
  failedCount: number;
  /** The first LISTED_FAILURES failed pages, by page number. */
  failures: PageFailure[];
  startedAt: number;
  startedBy: string | null;
  newPdf: boolean;
  /** Teachers read earlier pages of the book meanwhile. */
  hasReadyPages: boolean;
}

export interface Notice extends Outcome {
  id: number;
  bookId: number | null;
  title: string;
  by: string | null;
  mine: boolean;
}

const noticeColumns = (adminId: number) => ({
  id: preparationNotices.id,
  bookId: preparationNotices.bookId,
  title: preparationNotices.title,
  ...outcomeColumns,
  by: admins.name,
  mine: sql<number>`${preparationNotices.adminId} IS ${adminId}`,
});

function failuresOf(json: string | null): PageFailure[] {
  const parsed = JSON.parse(json ?? "[]") as PageFailure[];
  return parsed.sort((a, b) => a.n - b.n).slice(0, LISTED_FAILURES);
}

/**
 * Every book being prepared (oldest first: they finish first), with its pages done and failed in
 * one pass over their pages, and the outcomes of the last NOTICE_DAYS, the admin's own first.
 */
export async function preparationBoard(
  db: Db,
  adminId: number,
  now = Date.now(),
): Promise<{ preparing: PreparingBook[]; notices: Notice[] }> {
  const mine = sql<number>`${preparationNotices.adminId} IS ${adminId}`;
  const [preparing, notices] = await db.batch([
    db
      .select({
        bookId: pageSets.bookId,
        setId: pageSets.id,
        title: books.title,
        pageCount: pageSets.pageCount,
        stored: sql<number>`count(${pageSetPages.n}) - count(${pageSetPages.error})`,
        failedCount: sql<number>`count(${pageSetPages.error})`,
        failures: sql<
          string | null
        >`json_group_array(json_object('n', ${pageSetPages.n}, 'error', ${pageSetPages.error})) FILTER (WHERE ${pageSetPages.error} IS NOT NULL)`,
        startedAt: pageSets.createdAt,
        startedBy: admins.name,
        newPdf: sql<number>`${pageSets.pdfKey} IS NOT ${books.pdfKey}`,
        hasReadyPages: sql<number>`${books.pageSetId} IS NOT NULL`,
      })
      .from(pageSets)
      .innerJoin(books, eq(books.id, pageSets.bookId))
      .leftJoin(admins, eq(admins.id, pageSets.startedBy))
      .leftJoin(pageSetPages, eq(pageSetPages.setId, pageSets.id))
      .where(eq(pageSets.status, "preparing"))
      .groupBy(pageSets.id)
      .orderBy(asc(pageSets.createdAt))
      .limit(MAX_PREPARING),
    db
      .select(noticeColumns(adminId))
      .from(preparationNotices)
      .leftJoin(admins, eq(admins.id, preparationNotices.adminId))
      .where(gte(preparationNotices.createdAt, now - NOTICE_DAYS * DAY_MS))
      .orderBy(desc(mine), desc(preparationNotices.createdAt))
      .limit(MAX_NOTICES),
  ]);
  return {
    preparing: preparing.map(({ stored, failures, newPdf, hasReadyPages, ...row }) => ({
      ...row,
      done: stored,
      failures: failuresOf(failures),
      newPdf: Boolean(newPdf),
      hasReadyPages: Boolean(hasReadyPages),
    })),
    notices: notices.map((notice) => ({ ...notice, mine: Boolean(notice.mine) })),
  };
}

/**
 * The admin's own outcomes after notice `after` (the last one this browser dismissed), else those
 * of the last FIRST_LOOK_MS: what the console's banner polls. `after` walks the rowid.
 */
export async function newNoticesFor(db: Db, adminId: number, after: number | null, now = Date.now()): Promise<Notice[]> {
  const rows = await db
    .select(noticeColumns(adminId))
    .from(preparationNotices)
    .leftJoin(admins, eq(admins.id, preparationNotices.adminId))
    .where(
      and(
        eq(preparationNotices.adminId, adminId),
        after === null
          ? gte(preparationNotices.createdAt, now - FIRST_LOOK_MS)
          : and(gt(preparationNotices.id, after), gte(preparationNotices.createdAt, now - NOTICE_DAYS * DAY_MS)),
      ),
    )
    .orderBy(desc(preparationNotices.id))
    .limit(MAX_NEW_NOTICES);
  return rows.map((notice) => ({ ...notice, mine: true }));
}
