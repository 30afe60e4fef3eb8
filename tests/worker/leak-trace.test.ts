import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon";
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import encodeWebp, { init as initWebpEncoder } from "@jsquash/webp/encode.js";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { decodePngPixels } from "../../workers/books/png-pixels.ts";
import { auditLog } from "../../workers/db/schema.ts";
import type { TraceMatch } from "../../workers/leaks/trace.ts";
import { completePageSet } from "../../workers/page-images/complete-set.ts";
import { openPageSet, storePage } from "../../workers/page-images/page-sets.ts";
import { createBook, createSchool, db, errorOf, jsonOf, ORIGIN, request, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { pageText } from "./page-fixtures.ts";

// Issue 25: POST /api/leaks/trace names the teacher and day a leaked page image was made for, from
// the hidden mark every teacher's page carries (docs/decisions/0025-leak-trace.md).

/** A page with the look of print: lines of words whose edges are anti-aliased, different on every page. */
function printLikePage(width: number, height: number, seed: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4).fill(255);
  let state = seed;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  const unit = width / 1024;
  for (let y = 80 * unit; y < height - 100 * unit; y += 22 * unit) {
    if (random() < 0.12) continue; // a paragraph break
    let x = 90 * unit;
    const end = width - (90 + random() * (random() < 0.2 ? 500 : 40)) * unit;
    while (x < end) {
      const word = (12 + random() * 70) * unit;
      for (let yy = Math.floor(y); yy < y + 12 * unit; yy++) {
        for (let xx = Math.floor(x); xx < Math.min(end, x + word); xx++) {
          // Strokes: dark in the middle of each 'letter', grey toward its edges.
          const phase = ((xx - x) / (7 * unit)) % 1;
          const luma = Math.min(255, Math.round(Math.abs(phase - 0.5) * 2 * 300));
          const p = (yy * width + xx) * 4;
          pixels[p] = pixels[p + 1] = pixels[p + 2] = luma;
        }
      }
      x += word + 8 * unit;
    }
  }
  const image = new PhotonImage(pixels, width, height);
  try {
    return image.get_bytes();
  } finally {
    image.free();
  }
}

async function bookOfPages(schoolId: number, pages: number) {
  const book = await createBook({ title: `Traceable ${crypto.randomUUID().slice(0, 6)}` }, [schoolId]);
  const opened = await openPageSet(db(), book, pages);
  if (!opened.ok) throw new Error(opened.failure.error);
  const seed = Math.floor(Math.random() * 1e9) + 1;
  for (let n = 1; n <= pages; n++) {
    const images = new Map([
      [1024, printLikePage(1024, 1325, seed + n)],
      [2048, printLikePage(2048, 2650, seed + n)],
    ]);
    const stored = await storePage(db(), env.BOOKS, opened.value, n, { images, text: pageText(`page ${n}`) });
    if (!stored.ok) throw new Error(stored.failure.error);
  }
  const texts = Array.from({ length: pages }, (_, i) => `page ${i + 1}`);
  const completed = await completePageSet(db(), env.BOOKS, null, book, opened.value, { outline: [], text: texts });
  if (!completed.ok) throw new Error(completed.failure.error);
  return book;
}

async function trace(body: Uint8Array | null, type: string | null, cookie: string | null, headers: Record<string, string> = {}) {
  const all = new Headers(headers);
  if (type) all.set("Content-Type", type);
  if (cookie) all.set("Cookie", cookie);
  if (!("Origin" in headers)) all.set("Origin", ORIGIN);
  return request(`${ORIGIN}/api/leaks/trace`, { method: "POST", headers: all, body: body as BodyInit | null });
}

async function teacherPage(cookie: string, bookId: number, n: number): Promise<Uint8Array> {
  const response = await request(`${ORIGIN}/api/books/${bookId}/pages/${n}`, { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

/** Cropped to its top-right quarter and saved as WebP at quality 50: two of the attacks at once. */
async function quarterAsWebp(png: Uint8Array): Promise<Uint8Array> {
  const { width, height, data } = decodePngPixels(png);
  const w = Math.floor(width / 2);
  const h = Math.floor(height / 2);
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = (y * width + (width - w + x)) * 4;
      out.set(data.subarray(from, from + 4), (y * w + x) * 4);
    }
  }
  await initWebpEncoder(webpEncoderWasm);
  return new Uint8Array(await encodeWebp({ data: out, width: w, height: h, colorSpace: "srgb" }, { quality: 50 }));
}

/** The trace's answer; its route reads the raw image, so hc does not type it: read by a schema that must fit the server's TraceMatch. */
const Traced = z.object({
  matches: z.array(
    z.object({
      teacherId: z.number(),
      name: z.string(),
      email: z.string(),
      school: z.string(),
      day: z.string(),
      bookId: z.number(),
      title: z.string(),
      page: z.number(),
      confidence: z.number(),
    }),
  ),
}) satisfies z.ZodType<{ matches: TraceMatch[] }>;

describe("POST /api/leaks/trace", () => {
  let school: Awaited<ReturnType<typeof createSchool>>;
  let book: Awaited<ReturnType<typeof bookOfPages>>;
  let dana: Awaited<ReturnType<typeof signedInTeacher>>;
  let omar: Awaited<ReturnType<typeof signedInTeacher>>;
  let admin: Awaited<ReturnType<typeof signedInAdmin>>;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    school = await createSchool();
    book = await bookOfPages(school.id, 3);
    dana = await signedInTeacher(school, "Dana Whitfield");
    omar = await signedInTeacher(school, "Omar Haddad");
    admin = await signedInAdmin();
  });

  it("names the teacher, day, book and page of a page image as the teacher received it", async () => {
    const image = await teacherPage(dana.cookie, book.id, 2);
    const response = await trace(image, "image/png", admin.cookie);
    expect(response.status).toBe(200);
    const { matches } = await jsonOf(response, Traced);
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({
      teacherId: dana.teacher.id,
      name: "Dana Whitfield",
      email: dana.teacher.email,
      school: school.name,
      day: today,
      bookId: book.id,
      title: book.title,
      page: 2,
    });
    expect(matches[0]?.confidence).toBeGreaterThan(0.999);

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "leak.trace"), eq(auditLog.adminId, admin.admin.id)));
    expect(audit?.after).toMatchObject({ matches: [{ teacherId: dana.teacher.id, day: today, bookId: book.id, page: 2 }] });
  });

  it("still names her after a crop to a quarter and WebP at quality 50, and names only her", async () => {
    const image = await quarterAsWebp(await teacherPage(dana.cookie, book.id, 3));
    const response = await trace(image, "image/webp", admin.cookie);
    const { matches } = await jsonOf(response, Traced);
    expect(matches.map((m) => [m.teacherId, m.page])).toEqual([[dana.teacher.id, 3]]);
  });

  it("reads the mark in the visible stamp alone, against the stamp the reader drew for her (her name, address, school, today)", async () => {
    // Her page with the page's own pixels put back as stored (the ink's share of the mark gone):
    // only the stamp's dots, where the page is paper, are hers.
    const ask = (cookie: string) => request(`${ORIGIN}/api/books/${book.id}/pages/1`, { headers: { Cookie: cookie } });
    const stamped = decodePngPixels(new Uint8Array(await (await ask(dana.cookie)).arrayBuffer()));
    const stored = decodePngPixels(new Uint8Array(await (await ask(admin.cookie)).arrayBuffer()));
    expect([stamped.width, stamped.height]).toEqual([stored.width, stored.height]);
    const pixels = new Uint8Array(stored.data);
    let dots = 0;
    for (let p = 0; p < pixels.length; p += 4) {
      if ((stored.data[p] as number) >= 250 && (stamped.data[p] as number) < 100) {
        pixels.fill(stamped.data[p] as number, p, p + 3);
        dots++;
      }
    }
    expect(dots).toBeGreaterThan(5000);
    const image = new PhotonImage(pixels, stored.width, stored.height);
    let png: Uint8Array;
    try {
      png = image.get_bytes();
    } finally {
      image.free();
    }
    const { matches } = await jsonOf(trace(png, "image/png", admin.cookie), Traced);
    expect(matches.map((m) => [m.teacherId, m.day, m.page])).toEqual([[dana.teacher.id, today, 1]]);
  });

  it("tells two teachers' copies of the same page apart", async () => {
    const image = await teacherPage(omar.cookie, book.id, 2);
    const { matches } = await jsonOf(trace(image, "image/png", admin.cookie), Traced);
    expect(matches.map((m) => m.teacherId)).toEqual([omar.teacher.id]);
  });

  it("finds no one in the page as stored (no teacher's mark), and an empty list is still audited", async () => {
    const stored = await env.BOOKS.list({ prefix: `pages/${book.id}/` });
    const key = stored.objects.map((o) => o.key).find((k) => k.endsWith("/1-1024.png"));
    const original = new Uint8Array(await (await env.BOOKS.get(key as string))!.arrayBuffer());
    const before = (await db().select().from(auditLog).where(eq(auditLog.action, "leak.trace"))).length;
    const response = await trace(original, "image/png", admin.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ matches: [] });
    expect((await db().select().from(auditLog).where(eq(auditLog.action, "leak.trace"))).length).toBe(before + 1);
  });

  it("refuses what is not an image, with a clear message", async () => {
    const notPng = await trace(new TextEncoder().encode("not an image at all"), "image/png", admin.cookie);
    expect(notPng.status).toBe(400);
    expect(await notPng.json()).toEqual({ error: "The file is not a readable PNG image" });
    const text = await trace(new TextEncoder().encode("hello"), "text/plain", admin.cookie);
    expect(text.status).toBe(400);
    expect(await errorOf(text)).toMatch(/PNG, JPEG or WebP/);
    const empty = await trace(null, "image/jpeg", admin.cookie);
    expect(empty.status).toBe(400);
  });

  it("refuses more than 20 MB with 413, whatever the Content-Length says", async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    const response = await trace(big, "image/png", admin.cookie);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The image is larger than 20 MB" });
  });

  it("is for admins only: a teacher's cookie or none is 401, another site's page is 403", async () => {
    const image = await teacherPage(dana.cookie, book.id, 1);
    expect((await trace(image, "image/png", dana.cookie)).status).toBe(401);
    expect((await trace(image, "image/png", null)).status).toBe(401);
    expect((await trace(image, "image/png", admin.cookie, { Origin: "https://evil.example" })).status).toBe(403);
  });
});
