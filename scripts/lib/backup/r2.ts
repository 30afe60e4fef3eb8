/**
 * The R2 bucket backed up object by object and restored (docs/decisions/0046): a list of every key
 * with its size, ETag (R2's MD5 for a single-part object), SHA-256 and metadata in
 * `r2/objects.jsonl`, and the bytes in `r2/blobs/<sha256>` (an object stored twice is kept once).
 * Restore puts each object back with its metadata and its SHA-256, which R2 checks on the way in.
 * PDFs, covers and their renditions cannot be made again; page images could be rendered again
 * (npm run pages), but that takes minutes a book, so they are kept too.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";

export const R2EntrySchema = z.object({
  key: z.string().min(1),
  size: z.number().int().nonnegative(),
  etag: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  uploaded: z.string(),
  httpMetadata: z.record(z.string(), z.string()).default({}),
  customMetadata: z.record(z.string(), z.string()).default({}),
});
export type R2Entry = z.infer<typeof R2EntrySchema>;

export interface R2Dump {
  objects: number;
  /** Bytes of the objects; `stored`: bytes written (each distinct content once). */
  bytes: number;
  stored: number;
}

/** Objects read or written at once: enough to keep local R2 busy, few enough for the machine's two cores. */
const PARALLEL = 4;

/** The string fields of an object's HTTP metadata (a cache expiry date is not kept). */
function httpFields(metadata: R2HTTPMetadata | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** Runs `work` over `items`, PARALLEL at a time. */
async function eachInParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
}

async function listKeys(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** Streams one object to `blobs/<sha256>` (hashed on the way) and answers its list entry. */
async function saveObject(bucket: R2Bucket, key: string, blobs: string): Promise<{ entry: R2Entry; written: number } | null> {
  const object = await bucket.get(key);
  if (!object) return null; // Deleted since it was listed.
  const hash = createHash("sha256");
  const partial = join(blobs, `.${crypto.randomUUID()}`);
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(object.body as import("node:stream/web").ReadableStream), hashing, createWriteStream(partial));
  const sha256 = hash.digest("hex");
  const target = join(blobs, sha256);
  const fresh = !existsSync(target);
  if (fresh) renameSync(partial, target);
  else rmSync(partial);
  return {
    entry: {
      key,
      size: object.size,
      etag: object.etag,
      sha256,
      uploaded: object.uploaded.toISOString(),
      httpMetadata: httpFields(object.httpMetadata),
      customMetadata: object.customMetadata ?? {},
    },
    written: fresh ? object.size : 0,
  };
}

/** Writes every object of `bucket` under `dir` (`objects.jsonl`, `blobs/`). */
export async function dumpR2(bucket: R2Bucket, dir: string): Promise<R2Dump> {
  const blobs = join(dir, "blobs");
  mkdirSync(blobs, { recursive: true });
  const keys = await listKeys(bucket);
  const entries: R2Entry[] = [];
  let stored = 0;
  await eachInParallel(keys, async (key) => {
    const saved = await saveObject(bucket, key, blobs);
    if (!saved) return;
    entries.push(saved.entry);
    stored += saved.written;
  });
  entries.sort((a, b) => (a.key < b.key ? -1 : 1));
  writeFileSync(join(dir, "objects.jsonl"), entries.map((entry) => JSON.stringify(entry)).join("\n") + (entries.length ? "\n" : ""));
  return { objects: entries.length, bytes: entries.reduce((sum, entry) => sum + entry.size, 0), stored };
}

export function readR2List(dir: string): R2Entry[] {
  const text = readFileSync(join(dir, "objects.jsonl"), "utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => R2EntrySchema.parse(JSON.parse(line)));
}

/** SHA-256 of a file, streamed. */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Puts every listed object back into `bucket`, each checked against its SHA-256 first (and by R2 on the way in). */
export async function restoreR2(bucket: R2Bucket, dir: string): Promise<{ objects: number; bytes: number }> {
  const entries = readR2List(dir);
  let bytes = 0;
  await eachInParallel(entries, async (entry) => {
    const path = join(dir, "blobs", entry.sha256);
    if ((await fileSha256(path)) !== entry.sha256) throw new Error(`r2/blobs/${entry.sha256} (${entry.key}) does not match its checksum`);
    await bucket.put(entry.key, readFileSync(path), {
      httpMetadata: entry.httpMetadata,
      customMetadata: entry.customMetadata,
      sha256: entry.sha256,
    });
    bytes += entry.size;
  });
  return { objects: entries.length, bytes };
}
