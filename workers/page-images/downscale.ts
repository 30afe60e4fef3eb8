import type { GreyPixels, PagePixels } from "./page-image.ts";

/**
 * Opaque page pixels at a smaller `width` (the height keeps the page's shape), each output pixel the
 * mean of the source area it covers (a box filter: no aliasing on text or half-tones when shrinking).
 * Two passes in integers, rows then columns, each output pixel made of at most 3 source pixels per
 * axis; a page more than twice as wide as asked is halved first. Written here rather than taken
 * from photon: its `resize` took 55-140 ms for a 1024 px page, this takes about 12 ms in Node
 * (decision 0013), on the hot path of a teacher's first page.
 */
export function downscalePixels<Page extends PagePixels | GreyPixels>(page: Page, width: number): Page {
  let out = page;
  while (width < out.width) out = shrink(out, Math.max(width, Math.ceil(out.width / 2)));
  return out;
}

function shrink<Page extends PagePixels | GreyPixels>(page: Page, width: number): Page {
  const { width: sourceWidth, height: sourceHeight, channels, pixels } = page;
  const height = Math.max(1, Math.round((sourceHeight * width) / sourceWidth));
  const stride = width * channels;
  const sourceStride = sourceWidth * channels;
  const across = boxTaps(sourceWidth, width, channels);
  // Pass 1: each source row shrunk to `width` pixels. Weights are out of 256; 4 bits are dropped so
  // that pass 2's sums (out of 256 again) stay within 32 bits.
  const narrow = new Uint16Array(stride * sourceHeight);
  const { at0, at1, at2, w0, w1, w2 } = across;
  for (let y = 0, row = 0, o = 0; y < sourceHeight; y++, row += sourceStride) {
    for (let x = 0; x < width; x++, o += channels) {
      const a = row + (at0[x] as number);
      const b = row + (at1[x] as number);
      const c = row + (at2[x] as number);
      const p = w0[x] as number;
      const q = w1[x] as number;
      const r = w2[x] as number;
      narrow[o] = ((pixels[a] as number) * p + (pixels[b] as number) * q + (pixels[c] as number) * r) >> 4;
      if (channels === 1) continue;
      narrow[o + 1] = ((pixels[a + 1] as number) * p + (pixels[b + 1] as number) * q + (pixels[c + 1] as number) * r) >> 4;
      narrow[o + 2] = ((pixels[a + 2] as number) * p + (pixels[b + 2] as number) * q + (pixels[c + 2] as number) * r) >> 4;
      if (channels === 4) narrow[o + 3] = 255 << 4; // opaque pages: alpha stays 255
    }
  }
  // Pass 2: the shrunk rows combined into `height` rows.
  const down = boxTaps(sourceHeight, height, stride);
  const out = new Uint8Array(stride * height);
  for (let y = 0, o = 0; y < height; y++) {
    const a = down.at0[y] as number;
    const b = down.at1[y] as number;
    const c = down.at2[y] as number;
    const p = down.w0[y] as number;
    const q = down.w1[y] as number;
    const r = down.w2[y] as number;
    for (let i = 0; i < stride; i++, o++)
      out[o] = ((narrow[a + i] as number) * p + (narrow[b + i] as number) * q + (narrow[c + i] as number) * r + 2048) >> 12;
  }
  return { ...page, width, height, pixels: out };
}

/**
 * For each of `size` output pixels along an axis of `sourceSize` pixels (at most twice `size`): the
 * offsets (source pixel x `step`) of the 3 source pixels from the first it covers, and how much of
 * the output each gives, out of 256 (a tap past the area or the edge weighs 0).
 */
function boxTaps(sourceSize: number, size: number, step: number) {
  const ratio = sourceSize / size;
  const taps = { at0: new Int32Array(size), at1: new Int32Array(size), at2: new Int32Array(size) };
  const weights = { w0: new Int32Array(size), w1: new Int32Array(size), w2: new Int32Array(size) };
  for (let i = 0; i < size; i++) {
    const from = i * ratio;
    const to = Math.min(sourceSize, (i + 1) * ratio);
    const first = Math.floor(from);
    const shares = [0, 1, 2].map((k) => Math.max(0, Math.min(first + k + 1, to) - Math.max(first + k, from)) / ratio);
    // Whole numbers out of 256 that still sum to 256: the rounding goes to the largest share.
    const whole = shares.map((share) => Math.round(share * 256));
    const largest = whole.indexOf(Math.max(...whole));
    whole[largest] = (whole[largest] as number) + 256 - whole.reduce((sum, w) => sum + w, 0);
    taps.at0[i] = Math.min(first, sourceSize - 1) * step;
    taps.at1[i] = Math.min(first + 1, sourceSize - 1) * step;
    taps.at2[i] = Math.min(first + 2, sourceSize - 1) * step;
    weights.w0[i] = whole[0] as number;
    weights.w1[i] = whole[1] as number;
    weights.w2[i] = whole[2] as number;
  }
  return { ...taps, ...weights };
}
