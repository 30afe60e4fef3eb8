import type { PagePixels } from "./page-image.ts";

/**
 * Opaque page pixels at a smaller `width` (the height keeps the page's shape), each output pixel the
 * mean of the source area it covers (a box filter: no aliasing on text or half-tones when shrinking).
 * Two passes, rows then columns, in integers, with each output sample's source offsets and weights
 * worked out once. Written here rather than taken from photon: its `resize` took 55-140 ms for a
 * 1024 px page, on the hot path of a teacher's first page (bench/lib/stamp-bench.ts has this one's).
 */
export function downscalePixels(page: PagePixels, width: number): PagePixels {
  const { width: sourceWidth, height: sourceHeight, channels, pixels } = page;
  if (width >= sourceWidth) return page;
  const height = Math.max(1, Math.round((sourceHeight * width) / sourceWidth));
  const stride = width * channels;
  const sourceStride = sourceWidth * channels;

  // Pass 1: each source row shrunk to `width` pixels; weights out of 256.
  const across = boxTaps(sourceWidth, width, channels);
  const narrow = new Uint16Array(stride * sourceHeight);
  for (let y = 0; y < sourceHeight; y++) {
    const from = y * sourceStride;
    const to = y * stride;
    for (let j = 0, t = 0; j < stride; j++) {
      let sum = 0;
      for (let k = 0; k < across.taps; k++, t++)
        sum += (pixels[from + (across.offset[t] as number)] as number) * (across.weight[t] as number);
      narrow[to + j] = sum >> 4; // 12 bits of the 16 kept: sums stay within 32 bits in pass 2
    }
  }
  // Pass 2: the shrunk rows combined into `height` rows.
  const down = boxTaps(sourceHeight, height, 1);
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const to = y * stride;
    const t = y * down.taps;
    for (let j = 0; j < stride; j++) {
      let sum = 0;
      for (let k = 0; k < down.taps; k++)
        sum += (narrow[(down.offset[t + k] as number) * stride + j] as number) * (down.weight[t + k] as number);
      out[to + j] = (sum + 2048) >> 12;
    }
  }
  // Alpha stays 255 (opaque pages): the mean of 255s.
  return { width, height, channels, pixels: out };
}

/**
 * For each of `size` output pixels along an axis of `sourceSize` pixels, `taps` source offsets (in
 * samples: pixel x `channels` + channel) and weights out of 256 that sum to 256; unused taps weigh 0.
 */
function boxTaps(sourceSize: number, size: number, channels: number) {
  const ratio = sourceSize / size;
  const taps = Math.ceil(ratio) + 1;
  const offset = new Uint32Array(size * channels * taps);
  const weight = new Uint16Array(size * channels * taps);
  for (let i = 0; i < size; i++) {
    const from = i * ratio;
    const to = Math.min(sourceSize, (i + 1) * ratio);
    const first = Math.floor(from);
    const shares: number[] = [];
    for (let s = first; s < to && shares.length < taps; s++) shares.push(Math.max(0, Math.min(s + 1, to) - Math.max(s, from)) / ratio);
    // Whole numbers out of 256 that still sum to 256: the rounding goes to the largest share.
    const weights = shares.map((share) => Math.round(share * 256));
    const largest = weights.indexOf(Math.max(...weights));
    weights[largest] = (weights[largest] as number) + 256 - weights.reduce((a, b) => a + b, 0);
    for (let c = 0; c < channels; c++) {
      const t = (i * channels + c) * taps;
      for (let k = 0; k < taps; k++) {
        offset[t + k] = Math.min(first + k, sourceSize - 1) * channels + c;
        weight[t + k] = weights[k] ?? 0;
      }
    }
  }
  return { taps, offset, weight };
}
