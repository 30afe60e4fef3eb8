import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AdminBook } from "../../workers/books/detail.ts";
import { auditLog, books } from "../../workers/db/schema.ts";
import { allowLogged } from "./console-guard.ts";
import { api, client, createBook, createSchool, db, jsonOf, ORIGIN, request, signedInAdmin, signedInTeacher } from "./helpers.ts";

const MiB = 1024 * 1024;
let cookie: string;

beforeAll(async () => {
  cookie = (await signedInAdmin()).cookie;
});

type CoverType = "image/png" | "image/jpeg" | "image/webp";

/** A cover-like picture made in the test by photon (not the code under test): a gradient with a band of colour. */
function coverImage(type: CoverType, width = 600, height = 900): Uint8Array<ArrayBuffer> {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const band = y > height * 0.6 && y < height * 0.7;
      pixels[p] = band ? 240 : Math.round((x / width) * 120);
      pixels[p + 1] = band ? 180 : 40;
      pixels[p + 2] = band ? 30 : Math.round(90 + (y / height) * 120);
      pixels[p + 3] = 255;
    }
  }
  const image = new PhotonImage(pixels, width, height);
  try {
    const bytes = type === "image/png" ? image.get_bytes() : type === "image/jpeg" ? image.get_bytes_jpeg(85) : image.get_bytes_webp();
    return new Uint8Array(bytes);
  } finally {
    image.free();
  }
}

/** The size a lossy WebP declares: RIFF, WEBP, a "VP8 " chunk, then the key frame's 14-bit width and height. */
function webpSize(bytes: Uint8Array): { width: number; height: number } {
  const text = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  expect([text(0, 4), text(8, 12), text(12, 16)]).toEqual(["RIFF", "WEBP", "VP8 "]);
  expect([...bytes.subarray(23, 26)]).toEqual([0x9d, 0x01, 0x2a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
}

/** The cover upload's answer; its route reads the raw image, so hc does not type it. */
const CoverAnswer = z.object({
  book: z.object({ thumbnailPath: z.string() }).loose(),
  notice: z.string().nullable(),
}) satisfies z.ZodType<{ book: Pick<AdminBook, "thumbnailPath">; notice: string | null }>;

/** GET /api/books/:id/thumbnail (`w`: a rendition's width), typed; `etag` asks for a 304. */
function cover(bookId: number, w?: string, who: string | null = cookie, etag?: string) {
  const headers = etag ? { "If-None-Match": etag } : undefined;
  return client({ cookie: who }).api.books[":id"].thumbnail.$get(
    { param: { id: String(bookId) }, query: w === undefined ? {} : { w } },
    { headers },
  );
}

function uploadCover(bookId: number, bytes: Uint8Array, type: string) {
  const headers = { Origin: ORIGIN, "Content-Type": type, Cookie: cookie };
  return request(`${ORIGIN}/api/books/${bookId}/upload/thumbnail`, { method: "PUT", headers, body: bytes });
}

async function keysUnder(prefix: string): Promise<string[]> {
  return (await env.BOOKS.list({ prefix })).objects.map((object) => object.key).sort();
}

async function coverKeyOf(bookId: number): Promise<string | null> {
  const [row] = await db().select({ coverKey: books.coverKey }).from(books).where(eq(books.id, bookId));
  return row?.coverKey ?? null;
}

async function bytesOf(response: Pick<Response, "arrayBuffer">): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

describe("PUT /api/books/:id/upload/thumbnail", () => {
  it("stores a PNG, a JPEG and a WebP cover with WebP renditions 256 and 512 px wide, dropping the old ones", async () => {
    const book = await createBook({ title: "Covered" });
    let previousKeys = [book.coverKey!];
    let previousPath: string | null = null;
    for (const type of ["image/png", "image/jpeg", "image/webp"] as const) {
      const original = coverImage(type);
      const response = await uploadCover(book.id, original, type);
      expect(response.status, type).toBe(200);
      const { book: answered } = await jsonOf(response, CoverAnswer);
      expect(answered.thumbnailPath).not.toBe(previousPath);
      previousPath = answered.thumbnailPath;

      const key = (await coverKeyOf(book.id))!;
      expect(key).toMatch(new RegExp(`^covers/${book.id}/[0-9a-f]{32}$`));
      expect(await keysUnder(`covers/${book.id}/`)).toEqual([key, `${key}.256.webp`, `${key}.512.webp`]);
      for (const old of previousKeys) expect(await env.BOOKS.head(old), old).toBeNull();
      previousKeys = [key, `${key}.256.webp`, `${key}.512.webp`];

      const stored = await env.BOOKS.get(key);
      expect(stored?.httpMetadata?.contentType).toBe(type);
      expect(await bytesOf(new Response(stored!.body))).toEqual(original);
      for (const [width, height] of [
        [256, 384],
        [512, 768],
      ] as const) {
        const rendition = await env.BOOKS.get(`${key}.${width}.webp`);
        expect(rendition?.httpMetadata?.contentType).toBe("image/webp");
        const bytes = await bytesOf(new Response(rendition!.body));
        expect(webpSize(bytes), `${type} at ${width}`).toEqual({ width, height });
      }
    }
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(book.id)), eq(auditLog.action, "book.cover")));
    expect(audits).toHaveLength(3);
  });

  it("never makes a rendition wider than the cover", async () => {
    const book = await createBook({ title: "Small cover" });
    expect((await uploadCover(book.id, coverImage("image/png", 300, 450), "image/png")).status).toBe(200);
    const key = (await coverKeyOf(book.id))!;
    const sizes = [];
    for (const width of [256, 512]) sizes.push(webpSize(await bytesOf(new Response((await env.BOOKS.get(`${key}.${width}.webp`))!.body))));
    expect(sizes).toEqual([
      { width: 256, height: 384 },
      { width: 300, height: 450 },
    ]);
  });

  it("refuses images that do not decode, storing nothing", async () => {
    // libjpeg (mozjpeg's wasm) says what it found wrong on the console, as it always does.
    allowLogged(/Corrupt JPEG data|Unsupported marker|premature end/);
    const book = await createBook({ title: "Refused covers" });
    const png = coverImage("image/png");
    const broken = png.slice(0, 2000);
    // A JPEG whose entropy-coded data is scrambled: libjpeg gives up on it (and the Worker carries on).
    const garbled = coverImage("image/jpeg");
    const scan = garbled.findIndex((byte, i) => byte === 0xff && garbled[i + 1] === 0xda);
    for (let i = scan + 20; i < scan + 400; i++) garbled[i] = (i * 37) & 255;
    const cases = [
      { bytes: broken, type: "image/png", status: 415, error: "The file is not a readable PNG image" },
      { bytes: garbled, type: "image/jpeg", status: 415, error: "The file is not a readable JPEG image" },
    ];
    for (const { bytes, type, status, error } of cases) {
      const response = await uploadCover(book.id, bytes, type);
      expect(response.status, error).toBe(status);
      expect(await response.json()).toEqual({ error });
    }
    expect(await keysUnder(`covers/${book.id}/`)).toEqual([]);
    expect(await coverKeyOf(book.id)).toBe(book.coverKey);
  });

  it("keeps a CMYK JPEG and a cover of too many pixels as they are, says so, and serves the original for every width", async () => {
    const png = coverImage("image/png");
    // A JPEG whose frame (SOF0) says 900 x 600 in 4 components: what printers send.
    const cmyk = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xc0, 0, 20, 8, 0x03, 0x84, 0x02, 0x58, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0,
    ]);
    // A PNG whose header says 6000 x 9000 RGBA: more than the Worker decodes.
    const huge = png.slice();
    new DataView(huge.buffer).setUint32(16, 6000);
    new DataView(huge.buffer).setUint32(20, 9000);
    const cases = [
      { bytes: cmyk, type: "image/jpeg", notice: "The JPEG is in CMYK (print) colours: save it in RGB for screens" },
      { bytes: huge, type: "image/png", notice: "The cover is 6000 x 9000 pixels" },
    ];
    for (const { bytes, type, notice } of cases) {
      const book = await createBook({ title: `Kept cover ${type}` });
      const response = await uploadCover(book.id, bytes, type);
      expect(response.status, notice).toBe(200);
      expect((await jsonOf(response, CoverAnswer)).notice).toContain(notice);
      const key = (await coverKeyOf(book.id))!;
      expect(key).not.toBe(book.coverKey);
      for (const w of [undefined, "256", "512"]) {
        const served = await cover(book.id, w);
        expect(served.status, w).toBe(200);
        expect(served.headers.get("Content-Type")).toBe(type);
        expect((await bytesOf(served)).length).toBe(bytes.length);
      }
    }
  });

  it("takes a cover of exactly 2 MiB and refuses one byte more with 413", async () => {
    const book = await createBook({ title: "Heavy cover" });
    // Bytes after a PNG's end are ignored by every decoder: the real image, padded.
    const exact = new Uint8Array(2 * MiB);
    exact.set(coverImage("image/png"));
    expect((await uploadCover(book.id, exact, "image/png")).status).toBe(200);
    const over = new Uint8Array(2 * MiB + 1);
    over.set(coverImage("image/png"));
    expect((await uploadCover(book.id, over, "image/png")).status).toBe(413);
  });

  it("refuses a text file that claims to be a PNG, and other types", async () => {
    const book = await createBook({ title: "Not an image" });
    const text = new TextEncoder().encode("just some text, honestly");
    expect((await uploadCover(book.id, text, "image/png")).status).toBe(415);
    expect((await uploadCover(book.id, new TextEncoder().encode("GIF89a....."), "image/gif")).status).toBe(415);
    expect((await uploadCover(book.id, coverImage("image/jpeg"), "image/png")).status).toBe(415);
    expect(await keysUnder(`covers/${book.id}/`)).toEqual([]);
  });

  it("needs an admin session and a book", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const book = await createBook({ title: "Guarded" }, [school.id]);
    const png = coverImage("image/png", 60, 90);
    for (const who of ["", teacher.cookie]) {
      const headers = new Headers({ Origin: ORIGIN, "Content-Type": "image/png" });
      if (who) headers.set("Cookie", who);
      const response = await request(`${ORIGIN}/api/books/${book.id}/upload/thumbnail`, { method: "PUT", headers, body: png });
      expect(response.status).toBe(401);
    }
    expect((await uploadCover(999999, png, "image/png")).status).toBe(404);
  });
});

describe("GET /api/books/:id/thumbnail?w=", () => {
  it("serves a teacher of the school the WebP rendition of each width, privately cached, 304 when unchanged", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const book = await createBook({ title: "Served widths" }, [school.id]);
    expect((await uploadCover(book.id, coverImage("image/jpeg"), "image/jpeg")).status).toBe(200);
    for (const width of [256, 512]) {
      // The page's cache-buster (v) is not declared to the typed client: raw, here and below.
      const response = await api(`/api/books/${book.id}/thumbnail?v=1&w=${width}`, { cookie: teacher.cookie });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/webp");
      expect(response.headers.get("Cache-Control")).toBe("private, max-age=86400");
      const bytes = await bytesOf(response);
      expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
      expect(webpSize(bytes).width).toBe(width);
      const etag = response.headers.get("ETag")!;
      const again = await api(`/api/books/${book.id}/thumbnail?v=1&w=${width}`, {
        cookie: teacher.cookie,
        headers: { "If-None-Match": etag },
      });
      expect(again.status).toBe(304);
    }
    const original = await api(`/api/books/${book.id}/thumbnail?v=1`, { cookie: teacher.cookie });
    expect(original.headers.get("Content-Type")).toBe("image/jpeg");
  });

  it("answers another school's teacher 404 at every width, and an admin 200", async () => {
    const [mine, other] = [await createSchool(), await createSchool()];
    const outsider = await signedInTeacher(other);
    const book = await createBook({ title: "Not theirs" }, [mine.id]);
    expect((await uploadCover(book.id, coverImage("image/png"), "image/png")).status).toBe(200);
    for (const w of [undefined, "256", "512"]) {
      const response = await cover(book.id, w, outsider.cookie);
      expect(response.status, w).toBe(404);
      expect(await response.json()).toEqual({ error: "Book not found" });
      expect((await cover(book.id, w)).status).toBe(200);
    }
    expect((await cover(book.id, "256", null)).status).toBe(401);
  });

  it.each(["", "240", "1024", "abc", "256px", "0x100"])("answers 400 for w=%s", async (w) => {
    const book = await createBook({ title: `Odd width ${w}` });
    const response = await cover(book.id, w);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The cover's width is one of 256, 512", field: "w" });
  });

  it("makes the renditions of a cover stored before them on its first request, once", async () => {
    const book = await createBook({ title: "Older cover" });
    const original = coverImage("image/png");
    await env.BOOKS.put(book.coverKey!, original, { httpMetadata: { contentType: "image/png" } });
    expect(await env.BOOKS.head(`${book.coverKey}.512.webp`)).toBeNull();

    const first = await cover(book.id, "512");
    expect(first.headers.get("Content-Type")).toBe("image/webp");
    expect(webpSize(await bytesOf(first)).width).toBe(512);
    const made = await Promise.all([256, 512].map((width) => env.BOOKS.head(`${book.coverKey}.${width}.webp`)));
    expect(made.map((object) => object?.httpMetadata?.contentType)).toEqual(["image/webp", "image/webp"]);

    const second = await cover(book.id, "256");
    expect(webpSize(await bytesOf(second)).width).toBe(256);
    const after = await Promise.all([256, 512].map((width) => env.BOOKS.head(`${book.coverKey}.${width}.webp`)));
    expect(after.map((object) => object?.etag)).toEqual(made.map((object) => object?.etag));
  });

  it("serves the original where no rendition can be made, and marks it so that it is tried once", async () => {
    // The test helper's cover is a PNG signature and three bytes: nothing a decoder can read.
    const book = await createBook({ title: "Unreadable older cover" });
    const first = await cover(book.id, "256");
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("image/png");
    expect([...(await bytesOf(first))]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const marked = await env.BOOKS.head(`${book.coverKey}.256.webp`);
    expect(marked?.customMetadata).toEqual({ unavailable: "The file is not a readable PNG image" });

    const etag = first.headers.get("ETag")!;
    expect((await cover(book.id, "256", cookie, etag)).status).toBe(304);
    const second = await cover(book.id, "512");
    expect(second.headers.get("Content-Type")).toBe("image/png");
    expect((await env.BOOKS.head(`${book.coverKey}.256.webp`))?.etag).toBe(marked?.etag);
  });
});

describe("deleting a book", () => {
  it("deletes its cover and the cover's renditions", async () => {
    const book = await createBook({ title: "Gone with its covers" });
    expect((await uploadCover(book.id, coverImage("image/webp"), "image/webp")).status).toBe(200);
    expect(await keysUnder(`covers/${book.id}/`)).toHaveLength(3);
    expect((await client({ cookie }).api.books[":id"].$delete({ param: { id: String(book.id) } })).status).toBe(200);
    expect(await keysUnder(`covers/${book.id}/`)).toEqual([]);
  });
});
