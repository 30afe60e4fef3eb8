import { MARK_COLUMNS, MARK_ROWS } from "./mark.ts";
import markPassWasm from "./mark-pass.wasm";

/**
 * The hidden mark's pass over an RGB colour page in WebAssembly SIMD (wasm/mark-pass.ts, compiled
 * to mark-pass.wasm by `npm run build:wasm`), widening it to the RGBA libwebp takes: the same bytes
 * as mark.ts's `markedRgba` (tests/node/mark-simd.test.ts compares them on random pages), 8 pixels
 * at a time rather than one. docs/decisions/0037 has the figures.
 *
 * The page goes through the module's memory a strip of rows at a time (each with the row above and
 * below), so the memory stays under 1 MiB at any page size and is shared by every request of the
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
    stripFirst: number,
    first: number,
    rows: number,
    signs: number,
    rowSigns: number,
  ): void;
}

/** Rows marked per call: 64 rows of a 2048 px page are 384 KiB of RGB in and 512 KiB of RGBA out. */
const STRIP_ROWS = 64;
const SIGN_BYTES = MARK_COLUMNS * MARK_ROWS;
const WASM_PAGE = 65536;

let pass: MarkPass | undefined;

export function markedRgbaSimd(rgb: Uint8Array, width: number, height: number, signs: Int8Array): Uint8Array {
  if (signs.length !== SIGN_BYTES) throw new Error(`a mark has ${SIGN_BYTES} block signs, not ${signs.length}`);
  pass ??= new WebAssembly.Instance(markPassWasm).exports as unknown as MarkPass;
  const rowBytes = width * 3;
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
    heap.set(rgb.subarray(stripFirst * rowBytes, stripEnd * rowBytes), sourceAt);
    pass.markRows(sourceAt, targetAt, width, height, stripFirst, first, rows, signsAt, rowSignsAt);
    rgba.set(heap.subarray(targetAt, targetAt + rows * width * 4), first * width * 4);
  }
  return rgba;
}

const align = (at: number) => (at + 15) & ~15;
