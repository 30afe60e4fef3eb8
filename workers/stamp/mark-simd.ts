import { MARK_COLUMNS, MARK_ROWS } from "./mark.ts";
import markPassWasm from "./mark-pass.wasm";

/**
 * The hidden mark's pass over a colour page in WebAssembly SIMD (wasm/mark-pass.ts, compiled to
 * mark-pass.wasm by `npm run build:wasm`), written as the opaque RGBA libwebp takes: the same bytes
 * as mark.ts's JavaScript pass (tests/worker/mark-simd.test.ts compares them on random pages), 8
 * pixels at a time rather than one. docs/decisions/0037 has the figures.
 *
 * The page goes through the module's memory a strip of rows at a time (each with the row above and
 * below), so the memory stays under 1.5 MiB at any page size and is shared by every request of the
 * isolate. A call runs start to end with no await, so no other request's page can enter the strip.
 */
interface MarkPass {
  memory: WebAssembly.Memory;
  heapBase(): number;
  markRows(
    source: number,
    target: number,
    width: number,
    height: number,
    channels: number,
    stripFirst: number,
    first: number,
    rows: number,
    signs: number,
    rowSigns: number,
  ): void;
}

/** Rows marked per call: 64 rows of a 2048 px page are 512 KiB of RGBA in and 512 KiB out. */
const STRIP_ROWS = 64;
const SIGN_BYTES = MARK_COLUMNS * MARK_ROWS;
const WASM_PAGE = 65536;

let pass: MarkPass | undefined;

/** An RGB (`channels` 3) or opaque RGBA (4) page, marked, as a new opaque RGBA page; `pixels` is left as it was. */
export function markedRgbaSimd(pixels: Uint8Array, width: number, height: number, channels: 3 | 4, signs: Int8Array): Uint8Array {
  if (signs.length !== SIGN_BYTES) throw new Error(`a mark has ${SIGN_BYTES} block signs, not ${signs.length}`);
  if (pixels.length !== width * height * channels)
    throw new Error(`a ${width} x ${height} page has ${width * height * channels} bytes, not ${pixels.length}`);
  pass ??= new WebAssembly.Instance(markPassWasm).exports as unknown as MarkPass;
  const rowBytes = width * channels;
  const signsAt = pass.heapBase();
  const rowSignsAt = align(signsAt + SIGN_BYTES);
  const sourceAt = align(rowSignsAt + width * 2 + 16);
  const targetAt = align(sourceAt + (STRIP_ROWS + 2) * rowBytes);
  const end = targetAt + STRIP_ROWS * width * 4;
  const missing = end - pass.memory.buffer.byteLength;
  if (missing > 0) pass.memory.grow(Math.ceil(missing / WASM_PAGE));
  const heap = new Uint8Array(pass.memory.buffer);
  heap.set(new Uint8Array(signs.buffer, signs.byteOffset, signs.length), signsAt);
  const rgba = new Uint8Array(width * height * 4);
  for (let first = 0; first < height; first += STRIP_ROWS) {
    const rows = Math.min(STRIP_ROWS, height - first);
    const stripFirst = Math.max(0, first - 1);
    const stripEnd = Math.min(height, first + rows + 1);
    heap.set(pixels.subarray(stripFirst * rowBytes, stripEnd * rowBytes), sourceAt);
    pass.markRows(sourceAt, targetAt, width, height, channels, stripFirst, first, rows, signsAt, rowSignsAt);
    rgba.set(heap.subarray(targetAt, targetAt + rows * width * 4), first * width * 4);
  }
  return rgba;
}

const align = (at: number) => (at + 15) & ~15;
