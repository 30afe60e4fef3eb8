import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { prepareSession } from "../../workers/auth/sessions.ts";
import { asciiFilename, attachmentDisposition, parseRange } from "../../workers/books/pdf-stream.ts";
import { admins, books } from "../../workers/db/schema.ts";
import { api, client, createBook, createSchool, db, signedInTeacher } from "./helpers.ts";

const MiB = 1024 * 1024;
const SIZE = 3 * MiB;
const TITLE = "Secret Ledger of Élan";
const READER = { "Sec-Fetch-Dest": "empty", "X-Lectern-Reader": "1" };

/** `size` bytes of a deterministic pattern behind a PDF header, so every offset is checkable. */
function pdfBytes(size: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >>> 9) * seed) & 0xff;
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
  return bytes;
}

/** A book of `schoolIds` whose PDF in R2 is exactly `bytes`. */
async function bookWithPdf(title: string, schoolIds: number[], bytes: Uint8Array) {
  const book = await createBook({ title }, schoolIds);
  await env.BOOKS.put(book.pdfKey!, bytes, { httpMetadata: { contentType: "application/pdf" } });
  await db().update(books).set({ pdfSize: bytes.length }).where(eq(books.id, book.id));
  return book;
}

async function signedInAdmin() {
  const [admin] = await db()
    .insert(admins)
    .values({ email: `admin-${crypto.randomUUID()}@lectern.test`, name: "Ada Admin", passwordHash: "x" })
    .returning();
  const session = await prepareSession(db(), { kind: "admin", adminId: admin!.id });
  await session.insert;
  return `__Host-lectern_admin=${session.token}`;
}

async function bodyBytes(response: Pick<Response, "arrayBuffer">) {
  return new Uint8Array(await response.arrayBuffer());
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return actual.length === expected.length && actual.every((byte, i) => byte === expected[i]);
}

let school: { id: number };
let source: Uint8Array;
let bookId: number;
const pdfPath = () => `/api/books/${bookId}/pdf`;

/** GET of a book's PDF (the shared book unless `id`), with the cookie and the headers a browser would send. */
const getPdf = (cookie?: string, headers?: Record<string, string>, id = bookId) =>
  client({ cookie }).api.books[":id"].pdf.$get({ param: { id: String(id) } }, { headers });

beforeAll(async () => {
  school = await createSchool();
  source = pdfBytes(SIZE);
  bookId = (await bookWithPdf(TITLE, [school.id], source)).id;
});

// The PDF route answers its errors as plain Responses, so the typed client knows no shape for them.
async function expectError(response: Pick<Response, "status" | "headers" | "text">, status: number, message?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const text = await response.text();
  expect(text).not.toContain(TITLE);
  if (message) expect(JSON.parse(text)).toEqual({ error: message });
  return z.object({ error: z.string() }).parse(JSON.parse(text));
}

/** HEAD answers carry the status and headers of the GET, and no body. */
async function expectHeadError(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(await response.text()).toBe("");
}

describe("who may read", () => {
  it("answers 401 without a session", async () => {
    await expectError(await getPdf(undefined, { ...READER, Range: "bytes=0-9" }), 401, "Not signed in");
    // Raw: the typed client has no HEAD.
    await expectHeadError(await api(pdfPath(), { method: "HEAD", headers: READER }), 401);
  });

  it("answers 404 to an admin for a book without a PDF and for a book that does not exist", async () => {
    const cookie = await signedInAdmin();
    const noPdf = await createBook({ title: TITLE }, [school.id], { pdf: false });
    await expectError(await getPdf(cookie, undefined, noPdf.id), 404);
    await expectError(await getPdf(cookie, undefined, 999999999), 404);
  });
});

describe("teachers never get the file", () => {
  const TEACHER_REFUSAL = "Books are read in the Lectern reader; the PDF file is not available to teachers.";
  const DESTS = ["empty", "document", "iframe", "embed", null];
  const READER_FLAGS = ["1", "0", null];
  const RANGES = ["bytes=0-99", "bytes=0-", "bytes=-1048576", null];
  const combinations = DESTS.flatMap((dest) => READER_FLAGS.flatMap((flag) => RANGES.map((range) => [dest, flag, range] as const)));

  it.each(combinations)("refuses Sec-Fetch-Dest %s, X-Lectern-Reader %s, Range %s with 403", async (dest, flag, range) => {
    const headers: Record<string, string> = {};
    if (dest) headers["Sec-Fetch-Dest"] = dest;
    if (flag) headers["X-Lectern-Reader"] = flag;
    if (range) headers.Range = range;
    const { cookie } = await signedInTeacher(school);
    const response = await getPdf(cookie, headers);
    await expectError(response, 403, TEACHER_REFUSAL);
    expect(response.headers.get("Content-Range")).toBeNull();
    await expectHeadError(await api(pdfPath(), { cookie, method: "HEAD", headers }), 403);
  });

  it("refuses a teacher of another school, and a book that does not exist, the same way", async () => {
    const other = await signedInTeacher(await createSchool());
    await expectError(await getPdf(other.cookie, { ...READER, Range: "bytes=0-9" }), 403, TEACHER_REFUSAL);
    await expectError(await getPdf(other.cookie, READER, 999999999), 403, TEACHER_REFUSAL);
  });

  it("gives a teacher with an admin's cookie name but a teacher's token nothing either", async () => {
    const { cookie } = await signedInTeacher(school);
    const forged = cookie.replace("__Host-lectern_teacher", "__Host-lectern_admin");
    await expectError(await getPdf(forged, { Range: "bytes=0-9" }), 401, "Not signed in");
  });
});

describe("admins", () => {
  const TRICKY = `Élan "vital" / Bergson's (2nd)`;
  const DISPOSITION = `attachment; filename="Elan vital - Bergson's (2nd).pdf"; filename*=UTF-8''%C3%89lan%20%22vital%22%20-%20Bergson%27s%20%282nd%29.pdf`;

  it("download the whole file as an attachment named after the title, without a Range", async () => {
    const book = await bookWithPdf(TRICKY, [], source);
    const response = await getPdf(await signedInAdmin(), { "Sec-Fetch-Dest": "document" }, book.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(DISPOSITION);
    expect(response.headers.get("Content-Length")).toBe(String(SIZE));
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Range")).toBeNull();
    expect(sameBytes(await bodyBytes(response), source)).toBe(true);
  });

  it("get ranges too, with the same Content-Disposition", async () => {
    const cookie = await signedInAdmin();
    const response = await getPdf(cookie, { Range: "bytes=10-19" });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes 10-19/${SIZE}`);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Secret Ledger of Elan\.pdf"; filename\*=UTF-8''/);
    expect(sameBytes(await bodyBytes(response), source.slice(10, 20))).toBe(true);
    const whole = await getPdf(cookie, { Range: "bytes=0-" });
    expect(whole.status).toBe(206);
    expect(whole.headers.get("Content-Length")).toBe(String(SIZE));
    await whole.arrayBuffer();
  });

  it("get 416 for several ranges and 404 for a book without a PDF", async () => {
    const cookie = await signedInAdmin();
    const response = await getPdf(cookie, { Range: "bytes=0-1,5-6" });
    expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    await expectError(response, 416);
    const noPdf = await createBook({ title: TITLE }, [], { pdf: false });
    await expectError(await getPdf(cookie, undefined, noPdf.id), 404);
  });
});

describe("helpers", () => {
  it.each([
    ["bytes=0-9", 100, { kind: "range", range: { offset: 0, length: 10 } }],
    ["BYTES=90-", 100, { kind: "range", range: { offset: 90, length: 10 } }],
    ["bytes=-500", 100, { kind: "range", range: { offset: 0, length: 100 } }],
    [" bytes=5-5 ", 100, { kind: "range", range: { offset: 5, length: 1 } }],
    ["bytes=0-0", 0, { kind: "invalid" }],
    ["bytes=1-2, 3-4", 100, { kind: "invalid" }],
    ["bytes=1 -2", 100, { kind: "invalid" }],
    ["bytes=9999999999999999-", 100, { kind: "invalid" }],
  ])("parseRange(%s) of %i bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toMatchObject(expected);
  });

  it("makes safe file names", () => {
    expect(asciiFilename('a/b\\c"d\u0000e\nf')).toBe("a-b-cde f");
    expect(asciiFilename("数学")).toBe("book");
    expect(attachmentDisposition("数学")).toBe(`attachment; filename="book.pdf"; filename*=UTF-8''%E6%95%B0%E5%AD%A6.pdf`);
  });
});
