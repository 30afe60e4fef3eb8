import { env } from "cloudflare:test";
import { and, desc, eq } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PART_SIZE, sweepStaleUploads } from "../../workers/books/uploads.ts";
import { auditLog, books, pageSets, uploads } from "../../workers/db/schema.ts";
import { completePageSet } from "../../workers/page-images/complete-set.ts";
import { createUploadedPageSet, storePage } from "../../workers/page-images/page-sets.ts";
import { BLANK_DOCUMENT_ERROR } from "../../workers/renderer/messages.ts";
import { api, client, createBook, db, jsonOf, ORIGIN, okBody, request, signedInAdmin } from "./helpers.ts";
import { pageImages, pagePng, pageText, twoPagePdf } from "./page-fixtures.ts";

const MiB = 1024 * 1024;
/** A real PNG (covers are decoded on upload). */
const PNG = new Uint8Array(pagePng(60, 90));
let cookie: string;

beforeAll(async () => {
  cookie = (await signedInAdmin()).cookie;
});

/** Raw bytes to an admin endpoint, as the admin page's fetch would send them. */
function send(path: string, bytes: Uint8Array<ArrayBuffer>, init: { contentType?: string; cookie?: string; method?: string } = {}) {
  const headers = new Headers({ Origin: ORIGIN, "Content-Type": init.contentType ?? "application/octet-stream" });
  if (init.cookie !== "") headers.set("Cookie", init.cookie ?? cookie);
  return request(`${ORIGIN}${path}`, { method: init.method ?? "PUT", headers, body: bytes });
}

/** The typed client, as the signed-in admin. */
const asAdmin = () => client({ cookie });
/** A part's answer; its route reads the raw bytes, so hc does not type it. */
const PartAnswer = z.object({ partNumber: z.number(), etag: z.string() });
/** An upload in flight (`DELETE` cancels it), typed. */
const cancelUpload = (bookId: number, uploadId: string) =>
  asAdmin().api.books[":id"].upload.pdf[":uploadId"].$delete({ param: { id: String(bookId), uploadId } });

/** One byte per character (latin1), zero-padded to `size`. */
function bytesOf(text: string, size = text.length) {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

async function keysUnder(prefix: string): Promise<string[]> {
  return (await env.BOOKS.list({ prefix })).objects.map((object) => object.key);
}

async function bookRow(id: number) {
  const [book] = await db().select().from(books).where(eq(books.id, id));
  return book!;
}

/** A real PDF from the demo generator, padded with a comment block before %%EOF to `size` bytes. */
async function paddedPdf(size: number) {
  const pdf = await twoPagePdf("Padded", "P. Adder");
  const end = new TextDecoder("latin1").decode(pdf).lastIndexOf("%%EOF");
  const bytes = new Uint8Array(size);
  bytes.set(pdf.subarray(0, end));
  const line = new TextEncoder().encode("% padding to make a book-sized file, ignored by every reader\n");
  let offset = end;
  while (offset < size - 6) {
    bytes.set(line.subarray(0, Math.min(line.length, size - 6 - offset)), offset);
    offset += line.length;
  }
  bytes.set(new TextEncoder().encode("\n%%EOF"), size - 6);
  return bytes;
}

async function start(bookId: number, json: { size: number; pageCount?: number }) {
  const response = await asAdmin().api.books[":id"].upload.pdf.$post({ param: { id: String(bookId) }, json });
  expect(response.status).toBe(200);
  return okBody(response);
}

async function sendParts(bookId: number, started: Awaited<ReturnType<typeof start>>, bytes: Uint8Array<ArrayBuffer>) {
  const parts = await Promise.all(
    Array.from({ length: started.partCount }, async (_, i) => {
      const chunk = bytes.subarray(i * started.partSize, (i + 1) * started.partSize);
      const response = await send(`/api/books/${bookId}/upload/pdf/${started.uploadId}/${i + 1}`, chunk);
      expect(response.status).toBe(200);
      return jsonOf(response, PartAnswer);
    }),
  );
  return parts.reverse();
}

type CompleteBody = InferRequestType<
  ReturnType<typeof asAdmin>["api"]["books"][":id"]["upload"]["pdf"][":uploadId"]["complete"]["$post"]
>["json"];
const complete = (bookId: number, uploadId: string, json: CompleteBody) =>
  asAdmin().api.books[":id"].upload.pdf[":uploadId"].complete.$post({ param: { id: String(bookId), uploadId }, json });

describe("PDF upload in parts", () => {
  it("uploads a 21 MiB PDF in three parts; it waits for its pages before the book reads it", async () => {
    const book = await createBook({ title: "Big Book" });
    const bytes = await paddedPdf(21 * MiB);
    const started = await start(book.id, { size: bytes.length, pageCount: 2 });
    expect(started).toMatchObject({ partSize: 10 * MiB, partCount: 3 });
    expect(PART_SIZE).toBe(10 * MiB);
    const parts = await sendParts(book.id, started, bytes);
    expect(parts.map((part) => part.partNumber)).toEqual([3, 2, 1]);

    const response = await complete(book.id, started.uploadId, { parts, pageCount: 2 });
    expect(response.status).toBe(200);
    const body = await okBody(response);
    // The book still reads its previous PDF: the new one is a page set being prepared.
    expect(body.book).toMatchObject({ id: book.id, pdfPath: `/api/books/${book.id}/pdf` });
    expect(body.pageSet).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{24}$/), pageCount: 2 });

    const row = await bookRow(book.id);
    expect(row.pdfKey).toBe(book.pdfKey);
    const [set] = await db().select().from(pageSets).where(eq(pageSets.bookId, book.id));
    expect(set).toMatchObject({ id: body.pageSet.id, status: "preparing", pageCount: 2, pdfSize: bytes.length });
    expect(set!.pdfKey).toMatch(new RegExp(`^books/${book.id}/[0-9a-f]{32}\\.pdf$`));
    const stored = await env.BOOKS.get(set!.pdfKey);
    expect(stored?.httpMetadata?.contentType).toBe("application/pdf");
    expect(sameBytes(new Uint8Array(await stored!.arrayBuffer()), bytes)).toBe(true);
    expect(await env.BOOKS.head(book.pdfKey!)).not.toBeNull();
    expect(await db().select().from(uploads).where(eq(uploads.bookId, book.id))).toEqual([]);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "book"), eq(auditLog.entityId, String(book.id))))
      .orderBy(desc(auditLog.id));
    expect(audit).toMatchObject({
      action: "book.pdf",
      before: { pdfKey: book.pdfKey },
      after: { pageSetId: set!.id, pdfSize: bytes.length, pageCount: 2 },
    });

    // A second upload replaces the first one's set (and its PDF) before either is the book's.
    const again = await start(book.id, { size: bytes.length, pageCount: 2 });
    const second = await complete(book.id, again.uploadId, { parts: await sendParts(book.id, again, bytes), pageCount: 2 });
    expect(second.status).toBe(200);
    const sets = await db().select().from(pageSets).where(eq(pageSets.bookId, book.id));
    expect(sets.map((s) => s.id)).toEqual([(await okBody(second)).pageSet.id]);
    expect(await env.BOOKS.head(set!.pdfKey)).toBeNull();
  });

  it("refuses parts of the wrong size and part numbers out of range", async () => {
    const book = await createBook({ title: "Picky" });
    const started = await start(book.id, { size: PART_SIZE + 100 });
    expect(started.partCount).toBe(2);
    const path = `/api/books/${book.id}/upload/pdf/${started.uploadId}`;
    const short = await send(`${path}/1`, new Uint8Array(PART_SIZE - 1));
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ error: `Part 1 must be exactly ${PART_SIZE} bytes` });
    expect((await send(`${path}/1`, new Uint8Array(PART_SIZE + 1))).status).toBe(400);
    expect((await send(`${path}/2`, new Uint8Array(99))).status).toBe(400);
    expect((await send(`${path}/3`, new Uint8Array(100))).status).toBe(400);
    expect((await send(`${path}/0`, new Uint8Array(100))).status).toBe(400);
    expect((await send(`${path}/2`, new Uint8Array(100))).status).toBe(200);
    // Not every part sent yet.
    const early = await complete(book.id, started.uploadId, { parts: [{ partNumber: 2, etag: "x" }] });
    expect(early.status).toBe(400);
  });

  it("validates the start and the page count", async () => {
    const book = await createBook({ title: "Checked" });
    const startPdf = asAdmin().api.books[":id"].upload.pdf;
    for (const json of [{ size: 0 }, { size: 1024 * MiB + 1 }, { size: 10, pageCount: 0 }, { size: 10, pageCount: 100_001 }]) {
      const response = await startPdf.$post({ param: { id: String(book.id) }, json });
      expect(response.status, JSON.stringify(json)).toBe(400);
    }
    // No size at all, which the typed client would not send: raw.
    expect((await api(`/api/books/${book.id}/upload/pdf`, { cookie, body: {} })).status, "{}").toBe(400);
    expect((await startPdf.$post({ param: { id: "999999" }, json: { size: 10 } })).status).toBe(404);
  });

  it("deletes an upload that is not a PDF and answers 415", async () => {
    const book = await createBook({ title: "Impostor" });
    for (const content of ["this is not a pdf at all %%EOF", "%PDF-1.7 but it never ends"]) {
      const bytes = bytesOf(content);
      const started = await start(book.id, { size: bytes.length });
      const parts = await sendParts(book.id, started, bytes);
      const response = await complete(book.id, started.uploadId, { parts });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: "The file is not a PDF" });
    }
    expect(await keysUnder(`books/${book.id}/`)).toEqual([]);
    expect(await db().select().from(uploads).where(eq(uploads.bookId, book.id))).toEqual([]);
    expect((await bookRow(book.id)).pdfKey).toBe(book.pdfKey);
  });

  it("cancelling leaves no object and no uploads row", async () => {
    const book = await createBook({ title: "Changed my mind" });
    const started = await start(book.id, { size: PART_SIZE + 10 });
    expect((await send(`/api/books/${book.id}/upload/pdf/${started.uploadId}/1`, new Uint8Array(PART_SIZE))).status).toBe(200);
    const cancelled = await cancelUpload(book.id, started.uploadId);
    expect(await okBody(cancelled)).toEqual({ ok: true });
    expect(await keysUnder(`books/${book.id}/`)).toEqual([]);
    expect(await db().select().from(uploads).where(eq(uploads.bookId, book.id))).toEqual([]);
    expect((await send(`/api/books/${book.id}/upload/pdf/${started.uploadId}/2`, new Uint8Array(10))).status).toBe(404);
    expect((await cancelUpload(book.id, started.uploadId)).status).toBe(404);
  });

  it("treats another book's upload id as unknown", async () => {
    const mine = await createBook({ title: "Mine" });
    const other = await createBook({ title: "Other" });
    const bytes = bytesOf("%PDF-1.7\n%%EOF");
    const started = await start(mine.id, { size: bytes.length });
    expect((await send(`/api/books/${other.id}/upload/pdf/${started.uploadId}/1`, bytes)).status).toBe(404);
    const parts = await sendParts(mine.id, started, bytes);
    expect((await complete(other.id, started.uploadId, { parts })).status).toBe(404);
    expect((await cancelUpload(other.id, started.uploadId)).status).toBe(404);
    expect((await complete(mine.id, started.uploadId, { parts })).status).toBe(200);
    expect((await bookRow(other.id)).pdfKey).toBe(other.pdfKey);
    expect(await keysUnder(`books/${other.id}/`)).toEqual([]);
  });

  it("sweeps uploads abandoned for more than a day", async () => {
    const book = await createBook({ title: "Abandoned" });
    const stale = await start(book.id, { size: 100 });
    const fresh = await start(book.id, { size: 100 });
    await db()
      .update(uploads)
      .set({ createdAt: Date.now() - 25 * 60 * 60 * 1000 })
      .where(eq(uploads.id, stale.uploadId));
    expect(await sweepStaleUploads(db(), env.BOOKS, 24 * 60 * 60 * 1000)).toBe(1);
    const left = await db().select({ id: uploads.id }).from(uploads).where(eq(uploads.bookId, book.id));
    expect(left).toEqual([{ id: fresh.uploadId }]);
  });
});

describe("adding a book whose PDF is refused", () => {
  const BLANK = bytesOf("%PDF-1.7\n% two pages that come out blank\n%%EOF");

  /** What the renderer does with a PDF every page of which comes out blank: all failed, then complete. */
  async function refuseEveryPage(bookId: number) {
    const pageSets = asAdmin().api.books[":id"]["page-sets"];
    const opened = await okBody(pageSets.$post({ param: { id: String(bookId) }, json: { pageCount: 2 } }));
    const param = { id: String(bookId), setId: opened.id };
    for (const n of [1, 2]) {
      const json = { width: 612, height: 792, error: BLANK_DOCUMENT_ERROR };
      expect((await pageSets[":setId"].pages[":n"].failure.$put({ param: { ...param, n: String(n) }, json })).status).toBe(200);
    }
    return pageSets[":setId"].complete.$post({ param, json: { text: ["", ""], outline: [] } });
  }

  async function uploadBlankPdf(bookId: number) {
    const started = await start(bookId, { size: BLANK.length, pageCount: 2 });
    const completed = await complete(bookId, started.uploadId, { parts: await sendParts(bookId, started, BLANK), pageCount: 2 });
    expect(completed.status).toBe(200);
  }

  const REFUSED = `None of the 2 pages of this PDF could be rendered, so it was not added. ${BLANK_DOCUMENT_ERROR}`;

  it("removes the book the Add Books page made for that PDF, in the API's answer, the database, R2 and the audit log", async () => {
    const title = `Blank Add ${crypto.randomUUID().slice(0, 8)}`;
    // As the Add Books page does it: the book (provisional, since a PDF follows), its cover, its PDF.
    const created = await asAdmin().api.books.$post({ json: { title, author1: "A. Writer", provisional: true } });
    expect(created.status).toBe(201);
    const { book } = await okBody(created);
    expect((await bookRow(book.id)).provisional).toBe(true);
    expect((await send(`/api/books/${book.id}/upload/thumbnail`, PNG, { contentType: "image/png" })).status).toBe(200);
    await uploadBlankPdf(book.id);

    const refused = await refuseEveryPage(book.id);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: `${REFUSED} The book was not added either.`, bookRemoved: true });
    expect((await asAdmin().api.books[":id"].$get({ param: { id: String(book.id) } })).status).toBe(404);
    expect(await db().select().from(books).where(eq(books.id, book.id))).toEqual([]);
    expect(await db().select().from(pageSets).where(eq(pageSets.bookId, book.id))).toEqual([]);
    for (const prefix of [`books/${book.id}/`, `covers/${book.id}/`, `pages/${book.id}/`])
      expect(await keysUnder(prefix), prefix).toEqual([]);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(book.id)), eq(auditLog.action, "book.delete")));
    expect(entry).toMatchObject({ entityType: "book", before: { title, provisional: true }, after: { reason: REFUSED } });
  });

  it("keeps a book made before its PDF, and a book whose first pages were accepted", async () => {
    // Made without a PDF (one is added later from its page): it stays, still without a PDF.
    const { book: early } = await okBody(asAdmin().api.books.$post({ json: { title: "Details First", author1: "A. Writer" } }));
    await uploadBlankPdf(early.id);
    const kept = await refuseEveryPage(early.id);
    expect(kept.status).toBe(422);
    expect(await kept.json()).toEqual({ error: REFUSED });
    expect(await bookRow(early.id)).toMatchObject({ title: "Details First", pdfKey: null, pageSetId: null, provisional: false });

    // Added with a PDF whose pages were accepted: no longer provisional, so a refused replacement leaves it as it was.
    const added = await createBook({ title: "Accepted Once", provisional: true }, [], { pdf: false });
    const upload = `books/${added.id}/first.pdf`;
    await env.BOOKS.put(upload, BLANK);
    const set = await createUploadedPageSet(db(), env.BOOKS, added, { key: upload, size: BLANK.length, pageCount: 1 });
    expect((await storePage(db(), env.BOOKS, set, 1, { images: pageImages(), text: pageText("the first page") })).ok).toBe(true);
    const accepted = await completePageSet(db(), env.BOOKS, null, await bookRow(added.id), set, { outline: [], text: ["the first page"] });
    expect(accepted.ok).toBe(true);
    expect(await bookRow(added.id)).toMatchObject({ provisional: false, pageSetId: set.id, pdfKey: upload });
    await uploadBlankPdf(added.id);
    expect((await refuseEveryPage(added.id)).status).toBe(422);
    expect(await bookRow(added.id)).toMatchObject({ pageSetId: set.id, pdfKey: upload, pageCount: 1 });
  });
});
