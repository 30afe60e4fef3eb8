import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareSession } from "../../workers/auth/sessions.ts";
import { sha256Hex } from "../../workers/auth/tokens.ts";
import { admins, books, rateLimits } from "../../workers/db/schema.ts";
import { asciiFilename, attachmentDisposition, parseRange } from "../../workers/pdf-stream.ts";
import { api, createBook, createSchool, db, signedInTeacher } from "./helpers.ts";

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

async function bodyBytes(response: Response) {
  return new Uint8Array(await response.arrayBuffer());
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return actual.length === expected.length && actual.every((byte, i) => byte === expected[i]);
}

async function spentBytes(cookie: string, bookId: number): Promise<number | null> {
  const tokenHash = await sha256Hex(cookie.split("=")[1]!);
  const [row] = await db()
    .select()
    .from(rateLimits)
    .where(eq(rateLimits.key, `pdf:${tokenHash}:${bookId}`));
  return row?.count ?? null;
}

let school: { id: number };
let source: Uint8Array;
let bookId: number;
let etag: string;
const pdfPath = () => `/api/books/${bookId}/pdf`;

beforeAll(async () => {
  school = await createSchool();
  source = pdfBytes(SIZE);
  bookId = (await bookWithPdf(TITLE, [school.id], source)).id;
  const cookie = (await signedInTeacher(school)).cookie;
  etag = (await api(pdfPath(), { cookie, method: "HEAD", headers: READER })).headers.get("ETag")!;
});

/** A teacher session of its own, so byte budgets never leak between tests. */
async function teacherCookie() {
  return (await signedInTeacher(school)).cookie;
}

async function expectError(response: Response, status: number, message?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const text = await response.text();
  expect(text).not.toContain(TITLE);
  if (message) expect(JSON.parse(text)).toEqual({ error: message });
  return JSON.parse(text) as { error: string };
}

/** HEAD answers carry the status and headers of the GET, and no body. */
async function expectHeadError(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(await response.text()).toBe("");
}

describe("who may read", () => {
  it("answers 401 without a session", async () => {
    await expectError(await api(pdfPath(), { headers: { ...READER, Range: "bytes=0-9" } }), 401, "Not signed in");
    await expectHeadError(await api(pdfPath(), { method: "HEAD", headers: READER }), 401);
  });

  it("answers 404 for a teacher of another school, even with the reader's headers", async () => {
    const other = await signedInTeacher(await createSchool());
    await expectError(await api(pdfPath(), { cookie: other.cookie, headers: { ...READER, Range: "bytes=0-9" } }), 404, "Book not found");
    await expectHeadError(await api(pdfPath(), { cookie: other.cookie, method: "HEAD", headers: READER }), 404);
  });

  it("answers 404 for a book without a PDF and for a book that does not exist", async () => {
    const cookie = await teacherCookie();
    const noPdf = await createBook({ title: TITLE }, [school.id], { pdf: false });
    await expectError(await api(`/api/books/${noPdf.id}/pdf`, { cookie, headers: { ...READER, Range: "bytes=0-9" } }), 404);
    await expectError(await api("/api/books/999999999/pdf", { cookie, headers: { ...READER, Range: "bytes=0-9" } }), 404);
  });
});

describe("teacher requests the reader did not make", () => {
  it.each(["document", "iframe", "embed", "object", "frame", "EMPTYISH", null])("refuses Sec-Fetch-Dest %s with 403", async (dest) => {
    const cookie = await teacherCookie();
    const headers: Record<string, string> = { "X-Lectern-Reader": "1", Range: "bytes=0-99" };
    if (dest) headers["Sec-Fetch-Dest"] = dest;
    await expectError(await api(pdfPath(), { cookie, headers }), 403, "This book can only be opened in the Lectern reader.");
    await expectHeadError(await api(pdfPath(), { cookie, method: "HEAD", headers }), 403);
    expect(await spentBytes(cookie, bookId)).toBeNull();
  });

  it.each([undefined, "0", "true"])("refuses X-Lectern-Reader %s with 403", async (value) => {
    const headers: Record<string, string> = { "Sec-Fetch-Dest": "empty", Range: "bytes=0-99" };
    if (value) headers["X-Lectern-Reader"] = value;
    const response = await api(pdfPath(), { cookie: await teacherCookie(), headers });
    await expectError(response, 403, "This book can only be read through the Lectern reader.");
  });

  it("refuses a GET without a Range with 416 that names the size", async () => {
    const response = await api(pdfPath(), { cookie: await teacherCookie(), headers: READER });
    expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    const body = await expectError(response, 416);
    expect(body.error).toMatch(/range is required/);
  });

  it.each([
    ["one byte over 1 MiB", "bytes=0-1048576"],
    ["an open range over the rest of the file", "bytes=0-"],
    ["a suffix over 1 MiB", `bytes=-${MiB + 1}`],
  ])("refuses %s with 416", async (_name, range) => {
    const cookie = await teacherCookie();
    const response = await api(pdfPath(), { cookie, headers: { ...READER, Range: range } });
    expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    await expectError(response, 416, "A range may be at most 1 MiB.");
    expect(await spentBytes(cookie, bookId)).toBeNull();
  });

  it.each([
    ["several ranges", "bytes=0-9,20-29"],
    ["a range past the end", `bytes=${SIZE}-`],
    ["a start past the end", `bytes=${SIZE + 10}-${SIZE + 20}`],
    ["a reversed range", "bytes=50-10"],
    ["an empty suffix", "bytes=-0"],
    ["no numbers", "bytes=-"],
    ["another unit", "items=0-9"],
    ["garbage", "bytes=abc"],
  ])("refuses %s with 416 and bytes */size", async (_name, range) => {
    const response = await api(pdfPath(), { cookie: await teacherCookie(), headers: { ...READER, Range: range } });
    expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    await expectError(response, 416);
  });
});

describe("what the reader gets", () => {
  it.each([
    ["a-b", "bytes=100-199", 100, 199],
    ["a- near the end", `bytes=${SIZE - 500}-`, SIZE - 500, SIZE - 1],
    ["-n", "bytes=-300", SIZE - 300, SIZE - 1],
    ["a-b past the end, clamped", `bytes=${SIZE - 10}-${SIZE + 100}`, SIZE - 10, SIZE - 1],
    ["exactly 1 MiB", `bytes=${MiB}-${2 * MiB - 1}`, MiB, 2 * MiB - 1],
  ])("answers %s with 206 and exactly those bytes", async (_name, range, first, last) => {
    const cookie = await teacherCookie();
    const response = await api(pdfPath(), { cookie, headers: { ...READER, Range: range } });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes ${first}-${last}/${SIZE}`);
    expect(response.headers.get("Content-Length")).toBe(String(last - first + 1));
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("ETag")).toBe(etag);
    expect(sameBytes(await bodyBytes(response), source.slice(first, last + 1))).toBe(true);
    expect(await spentBytes(cookie, bookId)).toBe(last - first + 1);
  });

  it("sends the privacy headers and no Content-Disposition", async () => {
    const response = await api(pdfPath(), { cookie: await teacherCookie(), headers: { ...READER, Range: "bytes=0-7" } });
    expect(response.headers.get("Content-Disposition")).toBeNull();
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cross-Origin-Resource-Policy")).toBe("same-origin");
    expect(response.headers.get("Content-Encoding")).toBe("identity");
    expect(new TextDecoder().decode(await bodyBytes(response))).toBe("%PDF-1.7");
  });

  it("answers HEAD with the size and no body, without a Range and without spending the budget", async () => {
    const cookie = await teacherCookie();
    const response = await api(pdfPath(), { cookie, method: "HEAD", headers: READER });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Length")).toBe(String(SIZE));
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("ETag")).toMatch(/^"/);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Disposition")).toBeNull();
    expect((await bodyBytes(response)).length).toBe(0);
    expect(await spentBytes(cookie, bookId)).toBeNull();
  });

  it("lets a file of at most 1 MiB go out whole when asked for as a range", async () => {
    const small = pdfBytes(200_000, 3);
    const book = await bookWithPdf("Small Reader", [school.id], small);
    const response = await api(`/api/books/${book.id}/pdf`, { cookie: await teacherCookie(), headers: { ...READER, Range: "bytes=0-" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes 0-199999/200000`);
    expect(sameBytes(await bodyBytes(response), small)).toBe(true);
  });
});

describe("the reading budget", () => {
  const LIMIT = { error: "Reading limit reached for this book. Please try again later." };

  it("serves 3 × the size per hour, then 429 with Retry-After, counting only what was served", async () => {
    const size = 2 * MiB; // Budget 6 MiB: six 1 MiB ranges.
    const book = await bookWithPdf("Budget Book", [school.id], pdfBytes(size, 5));
    const cookie = await teacherCookie();
    const path = `/api/books/${book.id}/pdf`;
    for (let i = 0; i < 6; i++) {
      const start = (i % 2) * MiB;
      const response = await api(path, { cookie, headers: { ...READER, Range: `bytes=${start}-${start + MiB - 1}` } });
      expect(response.status).toBe(206);
      await response.arrayBuffer();
    }
    expect(await spentBytes(cookie, book.id)).toBe(6 * MiB);
    const refused = await api(path, { cookie, headers: { ...READER, Range: "bytes=0-0" } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(LIMIT);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await spentBytes(cookie, book.id)).toBe(6 * MiB);

    // Per session and book: the size is still readable, another session still reads.
    expect((await api(path, { cookie, method: "HEAD", headers: READER })).status).toBe(200);
    const fresh = await api(path, { cookie: await teacherCookie(), headers: { ...READER, Range: "bytes=0-0" } });
    expect(fresh.status).toBe(206);
    const otherBook = await api(pdfPath(), { cookie, headers: { ...READER, Range: "bytes=0-0" } });
    expect(otherBook.status).toBe(206);
  });

  it("gives a tiny file 4 MiB, so it can still be opened many times", async () => {
    const size = 256 * 1024;
    const book = await bookWithPdf("Tiny Book", [school.id], pdfBytes(size, 9));
    const cookie = await teacherCookie();
    const statuses: number[] = [];
    for (let i = 0; i < 17; i++) {
      const response = await api(`/api/books/${book.id}/pdf`, { cookie, headers: { ...READER, Range: "bytes=0-" } });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([...Array(16).fill(206), 429]);
    expect(await spentBytes(cookie, book.id)).toBe(4 * MiB);
  });

  it("holds under parallel requests: the check and the count are one statement", async () => {
    const book = await bookWithPdf("Parallel Book", [school.id], pdfBytes(MiB + MiB / 4, 11)); // Budget 4 MiB.
    const cookie = await teacherCookie();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => api(`/api/books/${book.id}/pdf`, { cookie, headers: { ...READER, Range: `bytes=0-${MiB - 1}` } })),
    );
    for (const response of responses) await response.arrayBuffer();
    expect(responses.map((r) => r.status).sort()).toEqual([206, 206, 206, 206, 429, 429]);
    expect(await spentBytes(cookie, book.id)).toBe(4 * MiB);
  });
});

describe("admins", () => {
  const TRICKY = `Élan "vital" / Bergson's (2nd)`;
  const DISPOSITION = `attachment; filename="Elan vital - Bergson's (2nd).pdf"; filename*=UTF-8''%C3%89lan%20%22vital%22%20-%20Bergson%27s%20%282nd%29.pdf`;

  it("download the whole file as an attachment named after the title, without a Range", async () => {
    const book = await bookWithPdf(TRICKY, [], source);
    const response = await api(`/api/books/${book.id}/pdf`, { cookie: await signedInAdmin(), headers: { "Sec-Fetch-Dest": "document" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(DISPOSITION);
    expect(response.headers.get("Content-Length")).toBe(String(SIZE));
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("Content-Range")).toBeNull();
    expect(sameBytes(await bodyBytes(response), source)).toBe(true);
  });

  it("get ranges too, with the same Content-Disposition, and spend no budget", async () => {
    const cookie = await signedInAdmin();
    const response = await api(pdfPath(), { cookie, headers: { Range: "bytes=10-19" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes 10-19/${SIZE}`);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Secret Ledger of Elan\.pdf"; filename\*=UTF-8''/);
    expect(sameBytes(await bodyBytes(response), source.slice(10, 20))).toBe(true);
    expect(await spentBytes(cookie, bookId)).toBeNull();
    const whole = await api(pdfPath(), { cookie, headers: { Range: "bytes=0-" } });
    expect(whole.status).toBe(206);
    expect(whole.headers.get("Content-Length")).toBe(String(SIZE));
    await whole.arrayBuffer();
  });

  it("get 416 for several ranges and 404 for a book without a PDF", async () => {
    const cookie = await signedInAdmin();
    const response = await api(pdfPath(), { cookie, headers: { Range: "bytes=0-1,5-6" } });
    expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
    await expectError(response, 416);
    const noPdf = await createBook({ title: TITLE }, [], { pdf: false });
    await expectError(await api(`/api/books/${noPdf.id}/pdf`, { cookie }), 404);
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
