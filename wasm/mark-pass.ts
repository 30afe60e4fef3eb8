// AssemblyScript (compiled by `npm run build:wasm` to workers/stamp/mark-pass.wasm): the hidden
// mark's pass over an RGB or RGBA colour page, written as the opaque RGBA that libwebp takes, 8
// pixels at a time in WebAssembly SIMD. It writes the same bytes as markPixels in workers/stamp/mark.ts (the
// tests compare them on random pages): every pixel moves by
//   round(strength(luma) x min(activity, ACTIVE) / ACTIVE) x sign
// where strength(luma) = clamp(PAPER - luma, 0, DELTA) is mark.ts's STRENGTH table (DELTA below
// FADE_FROM = PAPER - DELTA, fading to 0 at PAPER) and activity is |right - left| + |down - up| of
// the green channel. The rounding is Math.round's: halves up for either sign, so a positive move is
// floor((p + 48) / 96) and a negative one -floor((p + 47) / 96). docs/decisions/0037 says why.

// The constants of workers/stamp/mark.ts (a test checks they agree).
const MARK_COLUMNS: i32 = 64;
const MARK_ROWS: i32 = MARK_COLUMNS * 4 + 1;
const ACTIVE: i32 = 96;
const PAPER: i32 = 248;
const DELTA: i32 = 24;
/** floor(v / 96) = (v * 10923) >> 20 for every v the pass meets (0..2352; 10923 * 96 = 2^20 + 32). */
const DIVIDE_96: i32 = 10923;

/** Where the caller may place its buffers: the first free byte after this module's own data. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/**
 * Marks `rows` rows of a strip of RGB (`channels` 3) or opaque RGBA (4) into RGBA. The strip at
 * `source` holds rows of `width` pixels, the first of them page row `stripFirst`; the rows to mark
 * are page rows `first`..`first + rows` (the strip has the row above and below each, where the page
 * has one). `target` receives `rows` rows of RGBA. `signs` is the code's block signs (Int8,
 * MARK_COLUMNS x MARK_ROWS); `rowSigns` is scratch for `width` i16s (+ 16 bytes).
 */
export function markRows(
  source: usize,
  target: usize,
  width: i32,
  height: i32,
  channels: i32,
  stripFirst: i32,
  first: i32,
  rows: i32,
  signs: usize,
  rowSigns: usize,
): void {
  const rowBytes = width * channels;
  let signedRow = -1;
  for (let y = first; y < first + rows; y++) {
    const blockRow = min(MARK_ROWS - 1, (y * MARK_COLUMNS) / width);
    if (blockRow != signedRow) {
      // Each pixel's sign for this row of blocks (the block of x is min(63, floor(x * 64 / width))).
      const base = signs + <usize>(blockRow * MARK_COLUMNS);
      for (let x = 0; x < width; x++) {
        const column = min(MARK_COLUMNS - 1, (x * MARK_COLUMNS) / width);
        store<i16>(rowSigns + (<usize>x << 1), <i16>load<i8>(base + <usize>column));
      }
      signedRow = blockRow;
    }
    const p0 = source + <usize>((y - stripFirst) * rowBytes);
    // The first and the last row stand in for the rows beyond them.
    const up: isize = y > 0 ? <isize>-rowBytes : 0;
    const down: isize = y + 1 < height ? <isize>rowBytes : 0;
    const out = target + <usize>((y - first) * width * 4);
    // x = 0 and the tail (where x + 8 would pass the last pixel) one at a time; the rest 8 at a time.
    markOne(p0, out, 0, width, channels, up, down, rowSigns);
    let x = 1;
    if (channels == 3) {
      for (; x + 8 <= width - 1; x += 8) markEight(p0 + <usize>(x * 3), 3, out + <usize>(x * 4), up, down, rowSigns + (<usize>x << 1));
    } else {
      for (; x + 8 <= width - 1; x += 8) markEight(p0 + <usize>(x * 4), 4, out + <usize>(x * 4), up, down, rowSigns + (<usize>x << 1));
    }
    for (; x < width; x++) markOne(p0, out, x, width, channels, up, down, rowSigns);
  }
}

@inline
function markOne(row: usize, out: usize, x: i32, width: i32, channels: i32, up: isize, down: isize, rowSigns: usize): void {
  const p = row + <usize>(x * channels);
  const r = <i32>load<u8>(p);
  const g = <i32>load<u8>(p, 1);
  const b = <i32>load<u8>(p, 2);
  const left = x > 0 ? <i32>load<u8>(p + 1 - <usize>channels) : g;
  const right = x < width - 1 ? <i32>load<u8>(p + 1 + <usize>channels) : g;
  const vertical = abs<i32>(<i32>load<u8>(<usize>(<isize>p + down), 1) - <i32>load<u8>(<usize>(<isize>p + up), 1));
  const activity = min(abs<i32>(right - left) + vertical, ACTIVE);
  const strength = min(max(PAPER - ((r + 2 * g + b) >> 2), 0), DELTA);
  const sign = <i32>load<i16>(rowSigns + (<usize>x << 1));
  const q = (strength * activity + 47 + ((sign + 1) >> 1)) / ACTIVE;
  const move = q * sign;
  store<u32>(out + <usize>(x * 4), clamp(r + move) | (clamp(g + move) << 8) | (clamp(b + move) << 16) | 0xff000000);
}

@inline
function clamp(v: i32): u32 {
  return <u32>min(max(v, 0), 255);
}

// Byte masks that gather one channel of 8 RGB pixels (24 bytes: a = bytes 0..15, b = bytes 8..23)
// into the low 8 bytes; an index of 16 or more gives 0.
@inline
function channel(a: v128, b: v128, maskA: v128, maskB: v128): v128 {
  return i16x8.extend_low_i8x16_u(v128.or(i8x16.swizzle(a, maskA), i8x16.swizzle(b, maskB)));
}

@inline
function reds(p: usize): v128 {
  return channel(v128.load(p), v128.load(p, 8), i8x16(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), i8x16(-1, -1, -1, -1, -1, -1, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1));
}

@inline
function greens(p: usize): v128 {
  return channel(v128.load(p), v128.load(p, 8), i8x16(1, 4, 7, 10, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), i8x16(-1, -1, -1, -1, -1, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1));
}

@inline
function blues(p: usize): v128 {
  return channel(v128.load(p), v128.load(p, 8), i8x16(2, 5, 8, 11, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), i8x16(-1, -1, -1, -1, -1, 9, 12, 15, -1, -1, -1, -1, -1, -1, -1, -1));
}

// The same for 8 RGBA pixels (32 bytes: a = bytes 0..15, b = bytes 16..31).
@inline
function channel4(p: usize, maskA: v128, maskB: v128): v128 {
  return i16x8.extend_low_i8x16_u(v128.or(i8x16.swizzle(v128.load(p), maskA), i8x16.swizzle(v128.load(p, 16), maskB)));
}

@inline
function reds4(p: usize): v128 {
  return channel4(p, i8x16(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), i8x16(-1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1));
}

@inline
function greens4(p: usize): v128 {
  return channel4(p, i8x16(1, 5, 9, 13, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), i8x16(-1, -1, -1, -1, 1, 5, 9, 13, -1, -1, -1, -1, -1, -1, -1, -1));
}

@inline
function blues4(p: usize): v128 {
  return channel4(p, i8x16(2, 6, 10, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1), i8x16(-1, -1, -1, -1, 2, 6, 10, 14, -1, -1, -1, -1, -1, -1, -1, -1));
}

/**
 * Eight pixels (x >= 1 and x + 8 <= width - 1: each has a left and a right neighbour in the row),
 * `channels` 3 (RGB) or 4 (RGBA): a constant at each call, so the other branch is compiled away.
 */
@inline
function markEight(p: usize, channels: i32, out: usize, up: isize, down: isize, signsAt: usize): void {
  const rgb = channels == 3;
  const above = <usize>(<isize>p + up);
  const below = <usize>(<isize>p + down);
  const r = rgb ? reds(p) : reds4(p);
  const g = rgb ? greens(p) : greens4(p);
  const b = rgb ? blues(p) : blues4(p);
  const left = rgb ? greens(p - 3) : greens4(p - 4);
  const right = rgb ? greens(p + 3) : greens4(p + 4);
  const horizontal = i16x8.abs(i16x8.sub(right, left));
  const vertical = i16x8.abs(i16x8.sub(rgb ? greens(below) : greens4(below), rgb ? greens(above) : greens4(above)));
  const activity = i16x8.min_s(i16x8.add(horizontal, vertical), i16x8.splat(<i16>ACTIVE));
  const luma = i16x8.shr_u(i16x8.add(i16x8.add(r, b), i16x8.shl(g, 1)), 2);
  const strength = i16x8.min_s(i16x8.max_s(i16x8.sub(i16x8.splat(<i16>PAPER), luma), i16x8.splat(0)), i16x8.splat(<i16>DELTA));
  const sign = v128.load(signsAt);
  // 47 + 1 for a positive sign, 47 for a negative one.
  const bias = i16x8.add(i16x8.splat(47), i16x8.shr_s(i16x8.add(sign, i16x8.splat(1)), 1));
  const numerator = i16x8.add(i16x8.mul(strength, activity), bias);
  const divisor = i32x4.splat(DIVIDE_96);
  const low = i32x4.shr_s(i32x4.mul(i32x4.extend_low_i16x8_s(numerator), divisor), 20);
  const high = i32x4.shr_s(i32x4.mul(i32x4.extend_high_i16x8_s(numerator), divisor), 20);
  const move = i16x8.mul(i16x8.narrow_i32x4_s(low, high), sign);
  const zero = i16x8.splat(0);
  const r8 = i8x16.narrow_i16x8_u(i16x8.add(r, move), zero);
  const g8 = i8x16.narrow_i16x8_u(i16x8.add(g, move), zero);
  const b8 = i8x16.narrow_i16x8_u(i16x8.add(b, move), zero);
  const rg = i8x16.shuffle(r8, g8, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const ba = i8x16.shuffle(b8, i8x16.splat(-1), 0, 16, 1, 16, 2, 16, 3, 16, 4, 16, 5, 16, 6, 16, 7, 16);
  v128.store(out, i8x16.shuffle(rg, ba, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23));
  v128.store(out, i8x16.shuffle(rg, ba, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31), 16);
}
