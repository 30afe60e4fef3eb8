// The platform's page preparation in worker tests: real PDFs made in the test, uploaded as a script
// would, and waited for while the real local queue and renderer do the work.

import { eq } from "drizzle-orm";
import { PDFDocument, PDFHexString, PDFNumber, StandardFonts } from "pdf-lib";
import { expect } from "vitest";
import { books, pageSets } from "../../workers/db/schema.ts";
import { client, db, okBody } from "./helpers.ts";

/** A PDF of `words.length` pages, page n saying words[n - 1] in 24 pt Helvetica, with an outline entry per page when asked. */
export async function wordsPdf(words: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const word of words) {
    const page = pdf.addPage([612, 792]);
    page.drawText(word, { x: 72, y: 700, size: 24, font });
  }
  return (await pdf.save()) as Uint8Array<ArrayBuffer>;
}

/** The admin's upload through the API, as a publisher's script sends it: start, parts, complete. */
export async function uploadThroughApi(cookie: string, bookId: number, bytes: Uint8Array) {
  const upload = client({ cookie }).api.books[":id"].upload.pdf;
  const started = await okBody(upload.$post({ param: { id: String(bookId) }, json: { size: bytes.length } }));
  const parts = [];
  for (let i = 0; i < started.partCount; i++) {
    // The part's bytes go as the request's body (`init`): the route reads them itself.
    const part = await upload[":uploadId"][":partNumber"].$put(
      { param: { id: String(bookId), uploadId: started.uploadId, partNumber: String(i + 1) } },
      {
        headers: { "Content-Type": "application/octet-stream" },
        init: { body: bytes.subarray(i * started.partSize, (i + 1) * started.partSize) },
      },
    );
    expect(part.status).toBe(200);
    parts.push({ partNumber: i + 1, etag: (await okBody(part)).etag });
  }
  return okBody(upload[":uploadId"].complete.$post({ param: { id: String(bookId), uploadId: started.uploadId }, json: { parts } }));
}

export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A PDF whose pages need a password: an /Encrypt dictionary (RC4, 128-bit) whose /U entry matches no
 * password, so the empty one opens nothing. Not a real publisher's file, but what a reader meets.
 */
export async function passwordPdf(): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const random = (n: number) =>
    PDFHexString.of([...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0")).join(""));
  const encrypt = pdf.context.obj({ Filter: "Standard", V: 2, R: 3, Length: 128, P: -3904, O: random(32), U: random(32) });
  pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt);
  pdf.context.trailerInfo.ID = pdf.context.obj([random(16), random(16)]);
  return (await pdf.save({ useObjectStreams: false })) as Uint8Array<ArrayBuffer>;
}

/** A PDF of `words` pages whose page `broken` (from 1) is a number in the page tree, not a page. */
export async function brokenPagePdf(words: string[], broken: number): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.load(await wordsPdf(words));
  pdf.context.assign(pdf.getPage(broken - 1).ref, PDFNumber.of(42));
  return (await pdf.save({ useObjectStreams: false })) as Uint8Array<ArrayBuffer>;
}

/** The book once the platform has finished its pages (the set it names is ready, not only readable). */
export function readyBook(bookId: number) {
  return until(`book ${bookId} ready`, async () => {
    const [row] = await db()
      .select({ book: books, status: pageSets.status })
      .from(books)
      .innerJoin(pageSets, eq(pageSets.id, books.pageSetId))
      .where(eq(books.id, bookId));
    return row?.status === "ready" ? row.book : null;
  });
}
