/**
 * Where `npm run pages` (and the seed) put what they render. Two stores with one shape:
 * - the local state opened directly (D1 and R2 files under .wrangler), for when no app serves it;
 * - the running app, through the same admin page-set API the admin's browser uses, for when one
 *   does: two processes writing one local SQLite file give both `SQLITE_BUSY` (teachers got 500s and
 *   the back-fill "database is locked"), so while the app runs it stays the database's only writer.
 */

import { eq } from "drizzle-orm";
import { booksNeedingPages } from "../../workers/books/pages-status.ts";
import { getDb } from "../../workers/db/client.ts";
import { books } from "../../workers/db/schema.ts";
import { completePageSet } from "../../workers/page-images/complete-set.ts";
import type { CompletePageSet, PageText } from "../../workers/page-images/page-content.ts";
import {
  findPageSet,
  findPreparingSet,
  openPageSet,
  pageSetProgress,
  storePage,
  storePageFailure,
} from "../../workers/page-images/page-sets.ts";

export type BookRef = { id: number; title: string };
export type Outcome = { ok: true } | { ok: false; error: string; status?: number };
export type PageFailure = { width: number; height: number; error: string };
/** A set opened for rendering: its id, and the pages stored or failed before (a resumed job skips them). */
export type OpenedSet = { setId: string; done: number[] };

export interface PageStore {
  /** Books whose pages are missing, or the one given. */
  booksNeedingPages(bookId?: number): Promise<BookRef[]>;
  /** The PDF to render: the preparing set's, else the book's own. */
  readPdf(book: BookRef): Promise<Uint8Array>;
  openSet(book: BookRef, pageCount: number): Promise<({ ok: true } & OpenedSet) | { ok: false; error: string }>;
  putPage(book: BookRef, setId: string, n: number, page: { images: Map<number, Uint8Array>; text: PageText }): Promise<Outcome>;
  failPage(book: BookRef, setId: string, n: number, failure: PageFailure): Promise<Outcome>;
  /** Makes the set the book's; `failed` are the pages teachers are told could not be displayed. */
  complete(book: BookRef, setId: string, input: CompletePageSet): Promise<{ ok: true; failed: number[] } | { ok: false; error: string }>;
  close(): Promise<void>;
}

/** A domain outcome as the store's: the sentence of a refusal (the app's store adds the HTTP status it got). */
const storeOutcome = (outcome: { ok: true } | { ok: false; failure: { error: string } }): Outcome =>
  outcome.ok ? { ok: true } : { ok: false, error: outcome.failure.error };

/** The local state's D1 and R2, written directly: only while no app serves them. */
export function localPageStore(env: { DB: D1Database; BOOKS: R2Bucket }): PageStore {
  const db = getDb(env.DB);
  const book = async (id: number) => {
    const [row] = await db.select().from(books).where(eq(books.id, id)).limit(1);
    if (!row) throw new Error(`book ${id} is gone`);
    return row;
  };
  const set = async (bookId: number, setId: string) => {
    const found = await findPageSet(db, bookId, setId);
    if (!found) throw new Error("These pages were replaced by a newer upload");
    return found;
  };
  return {
    booksNeedingPages: (bookId) => booksNeedingPages(db, bookId),
    async readPdf(ref) {
      const row = await book(ref.id);
      const pdfKey = (await findPreparingSet(db, row.id))?.pdfKey ?? row.pdfKey;
      if (!pdfKey) throw new Error("no PDF");
      const object = await env.BOOKS.get(pdfKey);
      if (!object) throw new Error(`PDF object ${pdfKey} is missing`);
      return new Uint8Array(await object.arrayBuffer());
    },
    async openSet(ref, pageCount) {
      const opened = await openPageSet(db, await book(ref.id), pageCount);
      if (!opened.ok) return { ok: false, error: opened.failure.error };
      const progress = await pageSetProgress(db, opened.value);
      return { ok: true, setId: opened.value.id, done: [...progress.done, ...progress.failed.map((f) => f.n)] };
    },
    async putPage(ref, setId, n, page) {
      return storeOutcome(await storePage(db, env.BOOKS, await set(ref.id, setId), n, page));
    },
    async failPage(ref, setId, n, failure) {
      return storeOutcome(await storePageFailure(db, await set(ref.id, setId), n, failure));
    },
    async complete(ref, setId, input) {
      const completed = await completePageSet(db, env.BOOKS, null, await book(ref.id), await set(ref.id, setId), input);
      return completed.ok ? { ok: true, failed: completed.value.failed } : { ok: false, error: completed.failure.error };
    },
    async close() {},
  };
}

/** The app's answer to `/api/health` within a second, or null: is an app serving this state? */
export async function appAt(origin: string): Promise<string | null> {
  try {
    const response = await fetch(new URL("/api/health", origin), { signal: AbortSignal.timeout(1_000) });
    return response.ok ? origin : null;
  } catch {
    return null;
  }
}

/** An answer's body, or its `error` text as a failed outcome. */
async function read<T>(request: Promise<Response>): Promise<({ ok: true } & T) | { ok: false; error: string; status: number }> {
  const response = await request;
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!response.ok) return { ok: false, error: body?.error ?? `The app answered ${response.status}`, status: response.status };
  return { ok: true, ...(body as T) };
}

/**
 * The running app at `origin`, signed in as an admin: every write goes through the admin page-set
 * API (workers/api/admin-page-sets.ts), as the admin's browser sends it, so the app remains the only
 * process that writes its database. Throws when the sign-in fails. (Plain fetch: the typed client's
 * `Api` type drags the Worker's own types into the Node scripts' type check.)
 */
export async function appPageStore(origin: string, admin: { email: string; password: string }): Promise<PageStore> {
  // A script states its origin itself (the API refuses writes from elsewhere); the cookie is the session.
  const headers: Record<string, string> = { Origin: new URL(origin).origin };
  const send = (method: string, path: string, body?: unknown) =>
    fetch(new URL(path, origin), {
      method,
      headers: body instanceof FormData || body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body instanceof FormData || body === undefined ? body : JSON.stringify(body),
    });
  const login = await send("POST", "/api/admin/login", { ...admin, role: "admin" });
  const signedIn = await read<{ admin: unknown }>(Promise.resolve(login));
  if (!signedIn.ok) throw new Error(`Signing in to ${origin} as ${admin.email} failed: ${signedIn.error}`);
  headers.Cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const sets = (ref: BookRef) => `/api/books/${ref.id}/page-sets`;

  return {
    async booksNeedingPages(bookId) {
      const answer = await read<{ books: BookRef[] }>(send("GET", `/api/books/awaiting-pages?bookId=${bookId ?? ""}`));
      if (!answer.ok) throw new Error(answer.error);
      return answer.books;
    },
    async readPdf(ref) {
      const status = await read<{ preparing: { id: string } | null; hasPdf: boolean }>(send("GET", sets(ref)));
      if (!status.ok) throw new Error(status.error);
      if (!status.preparing && !status.hasPdf) throw new Error("no PDF");
      const response = await send("GET", status.preparing ? `${sets(ref)}/${status.preparing.id}/pdf` : `/api/books/${ref.id}/pdf`);
      if (!response.ok) throw new Error(`The app did not give the PDF (${response.status})`);
      return new Uint8Array(await response.arrayBuffer());
    },
    async openSet(ref, pageCount) {
      const opened = await read<{ id: string; done: number[]; failed: { n: number }[] }>(send("POST", sets(ref), { pageCount }));
      return opened.ok ? { ok: true, setId: opened.id, done: [...opened.done, ...opened.failed.map((f) => f.n)] } : opened;
    },
    async putPage(ref, setId, n, page) {
      const form = new FormData();
      for (const [width, image] of page.images) form.set(`w${width}`, new Blob([image as Uint8Array<ArrayBuffer>]), `${n}-${width}`);
      form.set("text", JSON.stringify(page.text));
      return read(send("PUT", `${sets(ref)}/${setId}/pages/${n}`, form));
    },
    async failPage(ref, setId, n, failure) {
      return read(send("PUT", `${sets(ref)}/${setId}/pages/${n}/failure`, failure));
    },
    async complete(ref, setId, input) {
      const completed = await read<{ failed: number[] }>(send("POST", `${sets(ref)}/${setId}/complete`, input));
      return completed.ok ? { ok: true, failed: completed.failed } : completed;
    },
    async close() {
      await send("POST", "/api/admin/logout").catch(() => {});
    },
  };
}
