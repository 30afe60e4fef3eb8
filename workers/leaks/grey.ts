/** Grey images (luma as floats, NaN where a suspect has no pixel) and their sizes, for the trace (docs/decisions/0025-leak-trace.md). */

/** Grey pixels (luma, 0-255) as floats. */
export interface Grey {
  width: number;
  height: number;
  data: Float32Array;
}

/** Luma (r + 2g + b) / 4 of 1 (grey), 2 (grey + alpha), 3 (RGB) or 4 (RGBA) channels; transparency over white. */
export function greyFromPixels(pixels: ArrayLike<number>, width: number, height: number, channels: number): Grey {
  const data = new Float32Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += channels) {
    let luma: number;
    let alpha = 255;
    if (channels <= 2) {
      luma = pixels[p] as number;
      if (channels === 2) alpha = pixels[p + 1] as number;
    } else {
      luma = ((pixels[p] as number) + 2 * (pixels[p + 1] as number) + (pixels[p + 2] as number)) / 4;
      if (channels === 4) alpha = pixels[p + 3] as number;
    }
    data[i] = alpha === 255 ? luma : (luma * alpha + 255 * (255 - alpha)) / 255;
  }
  return { width, height, data };
}

/** Area-average resize to `width` (and the height keeping the aspect, or `height`): for shrinking. */
export function resizeTo(image: Grey, width: number, height = Math.max(1, Math.round((image.height * width) / image.width))): Grey {
  const horizontal = resampleRows(image, width);
  return transpose(resampleRows(transpose(horizontal), height));
}

function resampleRows(image: Grey, width: number): Grey {
  const { data, width: from, height } = image;
  const out = new Float32Array(width * height);
  const ratio = from / width;
  for (let x = 0; x < width; x++) {
    const start = x * ratio;
    const end = Math.min(from, start + Math.max(ratio, 1));
    const first = Math.floor(start);
    const last = Math.min(from - 1, Math.ceil(end) - 1);
    for (let y = 0; y < height; y++) {
      const row = y * from;
      let sum = 0;
      let weight = 0;
      for (let i = first; i <= last; i++) {
        const w = Math.min(end, i + 1) - Math.max(start, i);
        if (w <= 0) continue;
        sum += (data[row + i] as number) * w;
        weight += w;
      }
      out[y * width + x] = weight ? sum / weight : (data[row + first] as number);
    }
  }
  return { width, height, data: out };
}

function transpose({ width, height, data }: Grey): Grey {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[x * height + y] = data[y * width + x] as number;
  return { width: height, height: width, data: out };
}

/** The image halved again and again down to about 16 px: level k is 2^k times smaller. */
export function pyramid(image: Grey): Grey[] {
  const levels = [image];
  let last = image;
  while (last.width > 24 && last.height > 24) {
    last = halve(last);
    levels.push(last);
  }
  return levels;
}

/** Half the size, each pixel the mean of the pixels of its 2 x 2 that are not NaN (NaN when none is). */
export function halveValid({ width, height, data }: Grey): Grey {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (const i of [2 * y * width + 2 * x, 2 * y * width + 2 * x + 1, (2 * y + 1) * width + 2 * x, (2 * y + 1) * width + 2 * x + 1]) {
        const v = data[i] as number;
        if (Number.isNaN(v)) continue;
        sum += v;
        n++;
      }
      out[y * w + x] = n ? sum / n : Number.NaN;
    }
  }
  return { width: w, height: h, data: out };
}

/** Half the size, each pixel the mean of 2 x 2 (the last row or column of an odd size dropped). */
export function halve({ width, height, data }: Grey): Grey {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const top = 2 * y * width;
    const bottom = top + width;
    for (let x = 0, o = y * w; x < w; x++, o++) {
      const i = 2 * x;
      out[o] =
        ((data[top + i] as number) + (data[top + i + 1] as number) + (data[bottom + i] as number) + (data[bottom + i + 1] as number)) / 4;
    }
  }
  return { width: w, height: h, data: out };
}

/** A 3 x 3 mean over the pixels there are (NaN, where a suspect has no pixel, stays NaN and is left out). */
export function blurValid(image: Grey): Grey {
  const { width, height, data } = image;
  const out = new Float32Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const centre = data[y * width + x] as number;
      if (Number.isNaN(centre)) {
        out[y * width + x] = Number.NaN;
        continue;
      }
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const v = xx < 0 || xx >= width ? Number.NaN : (data[yy * width + xx] as number);
          if (Number.isNaN(v)) continue;
          sum += v;
          n++;
        }
      }
      out[y * width + x] = sum / n;
    }
  }
  return { width, height, data: out };
}

/** The rows of an image that have a pixel (not NaN): [first, last + 1). */
export function validRows({ width, height, data }: Grey): [number, number] {
  let first = 0;
  let last = height;
  const empty = (j: number) => {
    for (let i = j * width, end = i + width; i < end; i++) if (!Number.isNaN(data[i] as number)) return false;
    return true;
  };
  while (first < last && empty(first)) first++;
  while (last > first && empty(last - 1)) last--;
  return [first, last];
}

/** Like `a` subsampled every `step` pixels: the grid warpToFrame uses with the same step. */
export function subsample(a: Grey, step: number): Grey {
  if (step === 1) return a;
  const width = Math.ceil(a.width / step);
  const height = Math.ceil(a.height / step);
  const data = new Float32Array(width * height);
  for (let j = 0; j < height; j++) for (let i = 0; i < width; i++) data[j * width + i] = a.data[j * step * a.width + i * step] as number;
  return { width, height, data };
}

/** Luma bytes (a stored page's) as a grey image. */
export function greyOf(luma: Uint8Array, width: number, height: number): Grey {
  return { width, height, data: Float32Array.from(luma) };
}
