/**
 * Opens a PDF stored in R2 without holding it whole: PDFium's availability API (FPDFAvail_*) says
 * which byte ranges it needs to open the document and each page, and they are read from R2 in
 * 64 KiB chunks (merged into one range read where adjacent). A 100 MB book opens in about 0.4 MB
 * of reads, and a document opened per job of a few pages keeps the wasm heap near 18 MB
 * (docs/decisions/0038, section 5).
 *
 * PDFium calls back into JavaScript for the bytes, which needs wasm functions in its function
 * table: `range-callbacks.wasm` (170 bytes, made by scripts/lib/make-range-callbacks.mjs) imports
 * the three callbacks and exports wasm functions that call them. They are put in the table once per
 * engine and call whichever reader is current: one document is open at a time in an isolate.
 */

import { loadWhole, UnopenablePdf } from "./load-whole.ts";
import { DAMAGED_MESSAGE, PASSWORD_MESSAGE, UNREADABLE_PAGE_MESSAGE } from "./messages.ts";
import { type Engine, PDFIUM_ERROR, type Pdfium } from "./pdfium.ts";
import rangeCallbacksWasm from "./range-callbacks.wasm";

const CHUNK = 64 * 1024;
/**
 * Chunks kept besides the ones read while opening (PDFium reads its cross-reference data again
 * without asking). A job's few pages stay far below it; past it, what later pages read is dropped.
 */
const KEEP_CHUNKS = 512;
/** Adjacent chunks merged into one range read, at most. */
const MAX_MERGED = 32;
/** Rounds of "not yet, read these" before a file is called damaged (a page normally takes 1 to 5). */
const MAX_ROUNDS = 400;

/** A page PDFium cannot find or parse: that page fails; the document is opened again for the next ones. */
export class UnreadablePage extends Error {
  override name = "UnreadablePage";
}

/**
 * A file the availability API refuses is opened whole, up to this size: PDFium's full parser mends
 * more (a broken cross-reference table is rebuilt by scanning the file), and tells a password from
 * damage. Whole, a file is in memory twice (its bytes and their copy in the wasm heap).
 */
export const WHOLE_FILE_LIMIT = 32 * 1024 * 1024;

interface Reader {
  getBlock(position: number, buffer: number, length: number): number;
  isDataAvail(offset: number, length: number): number;
  addSegment(offset: number, length: number): void;
}

let current: Reader | null = null;
const callbackSlots = new WeakMap<Engine, Promise<number>>();

/** The table index of the three callbacks for this engine (getBlock, isDataAvail, addSegment). */
function slotsFor(engine: Engine): Promise<number> {
  let slots = callbackSlots.get(engine);
  if (!slots) {
    slots = WebAssembly.instantiate(rangeCallbacksWasm, {
      env: {
        getBlock: (_param: number, position: number, buffer: number, length: number) =>
          current ? current.getBlock(position >>> 0, buffer >>> 0, length >>> 0) : 0,
        isDataAvail: (_self: number, offset: number, length: number) => (current ? current.isDataAvail(offset >>> 0, length >>> 0) : 0),
        addSegment: (_self: number, offset: number, length: number) => current?.addSegment(offset >>> 0, length >>> 0),
      },
    }).then(({ exports }) => {
      const base = engine.table.grow(3);
      engine.table.set(base, exports.getBlock as unknown as () => void);
      engine.table.set(base + 1, exports.isDataAvail as unknown as () => void);
      engine.table.set(base + 2, exports.addSegment as unknown as () => void);
      return base;
    });
    callbackSlots.set(engine, slots);
  }
  return slots;
}

export interface RangeDocument {
  doc: number;
  pageCount: number;
  /** Reads what page `index` (0-based) needs; then FPDF_LoadPage may be called for it. */
  loadPage(index: number): Promise<number>;
  close(): void;
  /** Bytes read from R2 so far, and in how many range reads. */
  stats(): { bytes: number; reads: number; size: number };
}

export async function openPdfByRanges(engine: Engine, bucket: R2Bucket, key: string): Promise<RangeDocument> {
  const head = await bucket.head(key);
  if (!head) throw new UnopenablePdf("The PDF of this book is gone: upload it again.");
  const size = head.size;
  const m = engine.pdfium;
  const base = await slotsFor(engine);
  const chunks = new Map<number, Uint8Array>();
  const wanted = new Set<number>();
  let bytes = 0;
  let reads = 0;
  const chunkRange = (offset: number, length: number) => [
    Math.floor(offset / CHUNK),
    Math.floor((Math.min(size, offset + Math.max(length, 1)) - 1) / CHUNK),
  ];
  const have = (offset: number, length: number) => {
    const [first, last] = chunkRange(offset, length);
    for (let c = first!; c <= last!; c++) if (!chunks.has(c)) return false;
    return true;
  };
  const want = (offset: number, length: number) => {
    const [first, last] = chunkRange(offset, length);
    for (let c = first!; c <= last!; c++) if (!chunks.has(c)) wanted.add(c);
  };
  const reader: Reader = {
    getBlock(position, buffer, length) {
      if (position + length > size) return 0;
      if (!have(position, length)) {
        want(position, length);
        return 0;
      }
      const heap = m.HEAPU8;
      for (let done = 0; done < length; ) {
        const at = (position + done) % CHUNK;
        const part = chunks.get(Math.floor((position + done) / CHUNK))!.subarray(at, Math.min(CHUNK, at + length - done));
        heap.set(part, buffer + done);
        done += part.length;
      }
      return 1;
    },
    isDataAvail(offset, length) {
      if (have(offset, length)) return 1;
      want(offset, length);
      return 0;
    },
    addSegment(offset, length) {
      want(offset, length);
    },
  };
  const readWanted = async () => {
    const list = [...wanted].sort((a, b) => a - b);
    wanted.clear();
    const reading: Promise<void>[] = [];
    for (let i = 0; i < list.length; ) {
      let j = i;
      while (j + 1 < list.length && list[j + 1] === list[j]! + 1 && j - i < MAX_MERGED - 1) j++;
      const first = list[i]!;
      const last = list[j]!;
      reading.push(
        (async () => {
          const offset = first * CHUNK;
          const object = await bucket.get(key, { range: { offset, length: Math.min(size, (last + 1) * CHUNK) - offset } });
          if (!object) throw new UnopenablePdf("The PDF of this book is gone: upload it again.");
          const data = new Uint8Array(await object.arrayBuffer());
          reads++;
          bytes += data.length;
          for (let c = first; c <= last; c++) chunks.set(c, data.subarray((c - first) * CHUNK, (c - first + 1) * CHUNK));
        })(),
      );
      i = j + 1;
    }
    await Promise.all(reading);
  };
  // wasm32 structs: FPDF_FILEACCESS { m_FileLen, m_GetBlock, m_Param } at 0, FX_FILEAVAIL { version, IsDataAvail } at 12,
  // FX_DOWNLOADHINTS { version, AddSegment } at 20.
  const structs = m._malloc(28);
  new Uint32Array(m.HEAPU8.buffer, structs, 7).set([size, base, 0, 1, base + 1, 1, base + 2]);
  const hints = structs + 20;
  current = reader;
  const avail = m._FPDFAvail_Create(structs + 12, structs);
  let doc = 0;
  const release = () => {
    if (doc) m._FPDF_CloseDocument(doc);
    m._FPDFAvail_Destroy(avail);
    m._free(structs);
    if (current === reader) current = null;
  };
  /** Asks PDFium until it has what it needs: 1 available, 0 not yet (it named the ranges), -1 damaged. */
  const until = async (check: () => number, damaged: () => Error) => {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      current = reader;
      const answer = check();
      if (answer === 1) return;
      if (answer === -1 || !wanted.size) throw damaged();
      await readWanted();
    }
    throw damaged();
  };
  const damagedFile = () => new UnopenablePdf(DAMAGED_MESSAGE);
  try {
    await until(() => m._FPDFAvail_IsDocAvail(avail, hints), damagedFile);
    current = reader;
    doc = m._FPDFAvail_GetDocument(avail, 0);
    if (!doc) {
      const error = m._FPDF_GetLastError();
      throw new UnopenablePdf(error === PDFIUM_ERROR.password || error === PDFIUM_ERROR.security ? PASSWORD_MESSAGE : DAMAGED_MESSAGE);
    }
  } catch (error) {
    release();
    throw error;
  }
  const pinned = new Set(chunks.keys());
  const pageCount = m._FPDF_GetPageCount(doc);
  return {
    doc,
    pageCount,
    async loadPage(index) {
      if (chunks.size > pinned.size + KEEP_CHUNKS) for (const c of chunks.keys()) if (!pinned.has(c)) chunks.delete(c);
      await until(
        () => m._FPDFAvail_IsPageAvail(avail, index, hints),
        () => new UnreadablePage(UNREADABLE_PAGE_MESSAGE),
      );
      current = reader;
      return m._FPDF_LoadPage(doc, index);
    },
    close: release,
    stats: () => ({ bytes, reads, size }),
  };
}

/**
 * The PDF opened by ranges, or, when the availability API refuses it and it is small enough, whole
 * (see WHOLE_FILE_LIMIT). A file refused both ways is refused with PDFium's reason.
 */
export async function openPdf(engine: Engine, bucket: R2Bucket, key: string, mode: "ranges" | "whole" = "ranges"): Promise<RangeDocument> {
  if (mode === "whole") return openWholeFrom(engine, bucket, key);
  try {
    return await openPdfByRanges(engine, bucket, key);
  } catch (error) {
    if (!(error instanceof UnopenablePdf) || error.message !== DAMAGED_MESSAGE || !(await openableWhole(bucket, key))) throw error;
    return openWholeFrom(engine, bucket, key);
  }
}

/** Whether a file may be opened whole (see WHOLE_FILE_LIMIT). */
export async function openableWhole(bucket: R2Bucket, key: string): Promise<boolean> {
  const head = await bucket.head(key);
  return !!head && head.size <= WHOLE_FILE_LIMIT;
}

async function openWholeFrom(engine: Engine, bucket: R2Bucket, key: string): Promise<RangeDocument> {
  if (!(await openableWhole(bucket, key))) throw new UnopenablePdf(DAMAGED_MESSAGE);
  const object = await bucket.get(key);
  if (!object) throw new UnopenablePdf("The PDF of this book is gone: upload it again.");
  return openWhole(engine.pdfium, new Uint8Array(await object.arrayBuffer()));
}

function openWhole(m: Pdfium, bytes: Uint8Array): RangeDocument {
  const { doc, data, pageCount } = loadWhole(m, bytes);
  return {
    doc,
    pageCount,
    loadPage: async (index) => m._FPDF_LoadPage(doc, index),
    close() {
      m._FPDF_CloseDocument(doc);
      m._free(data);
    },
    stats: () => ({ bytes: bytes.length, reads: 1, size: bytes.length }),
  };
}

export type { Pdfium };
export { DAMAGED_MESSAGE, PASSWORD_MESSAGE, UNREADABLE_PAGE_MESSAGE, UnopenablePdf };
