/**
 * The index the leak trace searches (docs/decisions/0025-leak-trace.md): for each ready page set, each
 * page's 128 px detail, built from the stored pages on first use, kept in R2 beside them and in the
 * isolate; and a stored page's luma at 1024 px when the trace asks for it.
 */
import { STORED_PAGE_EXTENSION } from "#shared/rules/page-format.ts";
import { decodePageImage } from "../page-images/page-image.ts";
import { pageImageKey, pageSetPrefix } from "../page-images/page-keys.ts";
import { FRAME_WIDTH } from "./frame.ts";
import { type Grey, greyFromPixels } from "./grey.ts";
import { DETAIL_WIDTH, pageDetail, thumbnailOf } from "./thumbnails.ts";

/** Luma as bytes: what an isolate keeps of a page (a quarter of the floats' memory). */
interface Bytes {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * One stored page's entry in a set's index: number, height at 1024 px, its detail (128 px wide;
 * what R2 keeps) and its thumbnail (made from the detail once, when the entry is read).
 */
interface IndexEntry {
  n: number;
  height: number;
  detail: Bytes;
  thumb: Bytes;
}

function indexEntry(n: number, height: number, detail: Bytes): IndexEntry {
  const thumb = thumbnailOf(asGrey(detail));
  return { n, height, detail, thumb: { ...thumb, data: Uint8Array.from(thumb.data, Math.round) } };
}

export function asGrey({ width, height, data }: Bytes): Grey {
  return { width, height, data: Float32Array.from(data) };
}

const INDEX_MAGIC = 0x4c544932; // "LTI2": 128 px details (LTI1 held 64 px thumbnails, built again)
const indexKey = (bookId: number, setId: string) => `${pageSetPrefix(bookId, setId)}trace-index.bin`;
const isolateIndexes = new Map<string, IndexEntry[]>();
/** Pages an isolate keeps between traces (about 26 kB each: 40 MB of its 128 MB). */
const MEMORY_PAGES = 1500;
let rememberedPages = 0;

/** A ready set's thumbnails: from this isolate, else from R2, else built from the stored pages and kept. */
export async function setIndex(bucket: R2Bucket, bookId: number, setId: string, pages: number[]): Promise<IndexEntry[]> {
  const key = indexKey(bookId, setId);
  const remembered = isolateIndexes.get(key);
  if (remembered) {
    // Most recently used last: the oldest is dropped first.
    isolateIndexes.delete(key);
    isolateIndexes.set(key, remembered);
    return remembered;
  }
  const stored = await bucket.get(key);
  let entries = stored ? readIndex(new Uint8Array(await stored.arrayBuffer())) : null;
  if (!entries) {
    entries = [];
    for (const n of pages) {
      const luma = await loadPageLuma(bucket, bookId, setId, n);
      if (!luma) continue;
      const detail = pageDetail(greyFromPixels(luma.data, FRAME_WIDTH, luma.height, 1));
      entries.push(indexEntry(n, luma.height, { ...detail, data: Uint8Array.from(detail.data, Math.round) }));
    }
    await bucket.put(key, writeIndex(entries));
  }
  isolateIndexes.set(key, entries);
  // The isolate keeps the most recently read sets up to MEMORY_PAGES pages.
  rememberedPages += entries.length;
  while (rememberedPages > MEMORY_PAGES && isolateIndexes.size > 1) {
    const [oldest, dropped] = isolateIndexes.entries().next().value as [string, IndexEntry[]];
    isolateIndexes.delete(oldest);
    rememberedPages -= dropped.length;
  }
  return entries;
}

function writeIndex(entries: IndexEntry[]): Uint8Array {
  const size = 8 + entries.reduce((sum, e) => sum + 10 + e.detail.data.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, INDEX_MAGIC);
  view.setUint32(4, entries.length);
  let at = 8;
  for (const { n, height, detail } of entries) {
    view.setUint32(at, n);
    view.setUint16(at + 4, height);
    view.setUint16(at + 6, detail.width);
    view.setUint16(at + 8, detail.height);
    at += 10;
    out.set(detail.data, at);
    at += detail.data.length;
  }
  return out;
}

function readIndex(bytes: Uint8Array): IndexEntry[] | null {
  if (bytes.length < 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== INDEX_MAGIC) return null;
  const entries: IndexEntry[] = [];
  let at = 8;
  for (let i = view.getUint32(4); i > 0; i--) {
    const width = view.getUint16(at + 6);
    const height = view.getUint16(at + 8);
    if (width !== DETAIL_WIDTH) return null; // an index of another size: built again
    const data = bytes.slice(at + 10, at + 10 + width * height);
    entries.push(indexEntry(view.getUint32(at), view.getUint16(at + 4), { width, height, data }));
    at += 10 + width * height;
  }
  return entries;
}

/** A stored page's luma at 1024 px (the frame the trace works in), or null when it is not stored. */
export async function loadPageLuma(
  bucket: R2Bucket,
  bookId: number,
  setId: string,
  n: number,
): Promise<{ data: Uint8Array; height: number } | null> {
  const object = await bucket.get(pageImageKey(bookId, setId, n, FRAME_WIDTH, STORED_PAGE_EXTENSION));
  if (!object) return null;
  const page = decodePageImage(new Uint8Array(await object.arrayBuffer()));
  if (page.width !== FRAME_WIDTH) return null;
  const { pixels, channels } = page;
  const data = new Uint8Array(page.width * page.height);
  for (let i = 0, p = 0; i < data.length; i++, p += channels) {
    data[i] = ((pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number)) >> 2;
  }
  return { data, height: page.height };
}
