import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { backfillCoverRenditions } from "../../workers/books/cover-renditions.ts";
import { sweepOrphans } from "../../workers/books/orphans.ts";
import { books } from "../../workers/db/schema.ts";
import { createBook, db, ORIGIN, request, signedInAdmin } from "./helpers.ts";
import { pagePng } from "./page-fixtures.ts";

// A replaced cover leaves nothing behind in R2: neither the old cover nor its renditions, nor those
// of a replace that lost a race to another (issue 41 item 15: 58 orphaned objects after the
// review's upload and fault runs, which the hourly sweep left). docs/decisions/0036.

let cookie: string;

beforeAll(async () => {
  cookie = (await signedInAdmin()).cookie;
});

function uploadCover(bookId: number, shade: number) {
  const bytes = pagePng(300, 450, shade) as Uint8Array<ArrayBuffer>;
  const headers = new Headers({ Cookie: cookie, Origin: ORIGIN, "Content-Type": "image/png", "Content-Length": String(bytes.byteLength) });
  return request(`${ORIGIN}/api/books/${bookId}/upload/thumbnail`, { method: "PUT", headers, body: bytes });
}

const keysUnder = async (prefix: string) => (await env.BOOKS.list({ prefix })).objects.map((o) => o.key).sort();
const coverKeyOf = async (bookId: number) => (await db().select({ key: books.coverKey }).from(books).where(eq(books.id, bookId)))[0]?.key;
const family = (key: string) => [key, `${key}.256.webp`, `${key}.512.webp`];

describe("replacing a cover", () => {
  it("twice at once, then once more: after the sweep only the current cover and its renditions remain", async () => {
    const book = await createBook({ title: `Twice covered ${crypto.randomUUID()}` });
    const statuses = (await Promise.all([uploadCover(book.id, 10), uploadCover(book.id, 90)])).map((r) => r.status).sort();
    expect((await uploadCover(book.id, 160)).status).toBe(200);
    await sweepOrphans(db(), env.BOOKS);
    const current = (await coverKeyOf(book.id))!;
    expect(await keysUnder(`covers/${book.id}/`)).toEqual(family(current).sort());
    expect(await env.BOOKS.head(book.coverKey!)).toBeNull();
    // One of two replaces racing wins; the other says the cover changed meanwhile, and keeps nothing.
    expect(statuses).toEqual([200, 409]);
  });

  it("the loser of the race is told to try again, and its try then replaces the cover", async () => {
    const book = await createBook({ title: `Raced ${crypto.randomUUID()}` });
    const answers = await Promise.all([uploadCover(book.id, 30), uploadCover(book.id, 200)]);
    const lost = answers.find((r) => r.status === 409);
    expect(await lost?.json()).toEqual({ error: "The cover was replaced by another upload a moment ago. Upload yours again to use it." });
    const before = await coverKeyOf(book.id);
    expect((await uploadCover(book.id, 60)).status).toBe(200);
    expect(await coverKeyOf(book.id)).not.toBe(before);
    expect(await keysUnder(`covers/${book.id}/`)).toEqual(family((await coverKeyOf(book.id))!).sort());
  });

  it("renditions made on a first request for a cover replaced meanwhile are not left behind", async () => {
    const prefix = `covers/${900_000 + Math.floor(Math.random() * 1000)}/`;
    const key = `${prefix}${crypto.randomUUID().replaceAll("-", "")}`;
    const png = pagePng(300, 450, 40);
    await env.BOOKS.put(key, png, { httpMetadata: { contentType: "image/png" } });
    // The original is read, then a replace deletes it while the renditions are being made.
    const racing = new Proxy(env.BOOKS, {
      get(bucket, name: keyof R2Bucket) {
        if (name !== "get")
          return typeof bucket[name] === "function" ? (bucket[name] as (...args: unknown[]) => unknown).bind(bucket) : bucket[name];
        return async (asked: string) => {
          if (asked !== key) return bucket.get(asked);
          await bucket.delete(key);
          return { arrayBuffer: async () => png.buffer, httpMetadata: { contentType: "image/png" } };
        };
      },
    });
    expect(await backfillCoverRenditions(racing, key)).toBe(false);
    expect(await keysUnder(prefix)).toEqual([]);
  });
});
