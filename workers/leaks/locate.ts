/**
 * Finding a stored page in a suspect image, and where (docs/decisions/0025-leak-trace.md).
 *
 * The suspect shows one page, or a quarter of it, maybe scaled, turned by a degree or two, or inside
 * a screenshot of the reader. The transform from the stored page's frame (its 1024 px rendition)
 * into the suspect's pixels is a similarity: u = s(x cos t - y sin t) + tx, v = s(x sin t + y cos t) + ty.
 *
 * 1. Hypotheses from the suspect's shape: it is the whole page or one of its quarters (turned with
 *    the canvas grown to fit, or cropped back to size), or a page on the reader's dark surround,
 *    whose straight edges give its turn and, with the corners they meet at, its place (pageBox).
 *    With neither the page's top nor its bottom on the surround, the page slides along its side
 *    edge (pageSlides): where is searched per page.
 * 2. Every stored page's 64 px thumbnail is compared with the suspect sampled under each hypothesis
 *    (the surround left out); each page's best few are compared again at 128 px, for as many pages
 *    as the suspect's share of a page allows for the cost of one page; the best few pairs go on.
 * 3. Each is refined by a pattern search of the four parameters at 128, 256 and 512 px, scoring by
 *    the correlation ratio (toneFit); the best one is read for the mark.
 */

export const FRAME_WIDTH = 1024;
export const THUMB_WIDTH = 64;

/** Grey pixels (luma, 0-255) as floats. */
export interface Grey {
  width: number;
  height: number;
  data: Float32Array;
}

export interface Transform {
  s: number;
  theta: number;
  tx: number;
  ty: number;
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

/** Bilinear sample at (u, v) in pixel-centre coordinates, NaN outside the image. */
function sample({ width, height, data }: Grey, u: number, v: number): number {
  const x = u - 0.5;
  const y = v - 0.5;
  if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return Number.NaN;
  const x0 = Math.max(0, Math.min(width - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(height - 1, Math.floor(y)));
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const a = data[y0 * width + x0] as number;
  const b = data[y0 * width + x1] as number;
  const c = data[y1 * width + x0] as number;
  const d = data[y1 * width + x1] as number;
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

/**
 * The suspect seen in the page's frame at `frameWidth` px (the 1024 px frame scaled): each frame
 * pixel's centre mapped through the transform, sampled from the suspect's pyramid level whose
 * pixels are about the frame pixel's size. NaN where the suspect has no pixel.
 */
export function warpToFrame(levels: Grey[], t: Transform, frameWidth: number, frameHeight: number, step = 1): Grey {
  const unit = FRAME_WIDTH / frameWidth; // frame px of the 1024 frame per output px
  const footprint = t.s * unit; // suspect px per output px
  const level = Math.max(0, Math.min(levels.length - 1, Math.floor(Math.log2(Math.max(1, footprint / 1.5)))));
  const image = levels[level] as Grey;
  const k = 1 / 2 ** level;
  const cos = Math.cos(t.theta) * t.s * k;
  const sin = Math.sin(t.theta) * t.s * k;
  const width = Math.ceil(frameWidth / step);
  const height = Math.ceil(frameHeight / step);
  const out = new Float32Array(width * height);
  for (let j = 0; j < height; j++) {
    const y = (j * step + 0.5) * unit;
    for (let i = 0; i < width; i++) {
      const x = (i * step + 0.5) * unit;
      out[j * width + i] = sample(image, cos * x - sin * y + t.tx * k, sin * x + cos * y + t.ty * k);
    }
  }
  return { width, height, data: out };
}

/**
 * How well `b` (the suspect) is told by `a` (the page) through any change of greys: the correlation
 * ratio, sqrt of the share of b's variance that a's grey level explains, corrected for the number
 * of bins. A threshold, gamma or JPEG keep it near 1 where the two show the same thing; a plain
 * correlation would not survive the threshold. -1 when fewer than `minShare` of the pixels overlap.
 */
/** toneFit's bins, reused: it runs hundreds of thousands of times a trace. */
const COUNTS = new Float64Array(256);
const SUMS = new Float64Array(256);

export function toneFit(a: Grey, b: Grey, minShare: number, bins = 32, shift = 0, rows: [number, number] = [0, b.height]): number {
  const counts = COUNTS.fill(0, 0, bins);
  const sums = SUMS.fill(0, 0, bins);
  let n = 0;
  let total = 0;
  let squares = 0;
  const width = a.width;
  const scale = bins / 256;
  // Row j of `a` against row j + shift of `b` (the same width): a page slid along a strip of the suspect.
  // `rows`: where b has pixels at all (validRows), so that a small suspect costs what it shows.
  for (let j = Math.max(0, -shift, rows[0] - shift), last = Math.min(a.height, rows[1] - shift); j < last; j++) {
    const rowA = j * width;
    const rowB = (j + shift) * width;
    for (let i = 0; i < width; i++) {
      const y = b.data[rowB + i] as number;
      if (Number.isNaN(y)) continue;
      const k = Math.min(bins - 1, Math.max(0, Math.floor((a.data[rowA + i] as number) * scale)));
      counts[k] = (counts[k] as number) + 1;
      sums[k] = (sums[k] as number) + y;
      n++;
      total += y;
      squares += y * y;
    }
  }
  if (n < minShare * a.data.length || n < 4 * bins) return -1;
  const variance = squares - (total * total) / n;
  if (variance <= 1e-6) return -1;
  let explained = 0;
  let used = 0;
  for (let k = 0; k < bins; k++) {
    const c = counts[k] as number;
    if (!c) continue;
    used++;
    explained += ((sums[k] as number) * (sums[k] as number)) / c;
  }
  const eta2 = (explained - (total * total) / n) / variance;
  const adjusted = eta2 - ((used - 1) / Math.max(1, n - used)) * (1 - eta2);
  return adjusted > 0 ? Math.sqrt(adjusted) : 0;
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
function subsample(a: Grey, step: number): Grey {
  if (step === 1) return a;
  const width = Math.ceil(a.width / step);
  const height = Math.ceil(a.height / step);
  const data = new Float32Array(width * height);
  for (let j = 0; j < height; j++) for (let i = 0; i < width; i++) data[j * width + i] = a.data[j * step * a.width + i * step] as number;
  return { width, height, data };
}

const DEGREE = Math.PI / 180;

/**
 * Where the suspect may show the page (1024 px frame, `pageHeight` tall): the hypotheses of step 1.
 * `box`: where a screenshot shows the page on its surround (pageBox), when it does.
 */
export function hypotheses(suspect: Grey, pageHeight: number, box: PageBox | null = null): Transform[] {
  const out: Transform[] = [];
  const W = FRAME_WIDTH;
  const H = pageHeight;
  const regions = [
    { x: 0, y: 0, w: W, h: H },
    { x: 0, y: 0, w: W / 2, h: H / 2 },
    { x: W / 2, y: 0, w: W / 2, h: H / 2 },
    { x: 0, y: H / 2, w: W / 2, h: H / 2 },
    { x: W / 2, y: H / 2, w: W / 2, h: H / 2 },
  ];
  for (let degrees = -2; degrees <= 2; degrees += 1) {
    const theta = degrees * DEGREE;
    const cos = Math.cos(theta);
    const sin = Math.abs(Math.sin(theta));
    for (const region of regions) {
      for (const grown of degrees === 0 ? [false] : [false, true]) {
        const s = grown ? suspect.width / (region.w * cos + region.h * sin) : suspect.width / region.w;
        const expectedHeight = grown ? s * (region.w * sin + region.h * cos) : s * region.h;
        if (Math.abs(expectedHeight - suspect.height) > 0.12 * suspect.height) continue;
        out.push(pinned(s, theta, region.x + region.w / 2, region.y + region.h / 2, [suspect.width / 2, suspect.height / 2]));
      }
    }
  }
  // The suspect's corner at a corner of the page, showing its whole width or half of it: a page
  // cut by the suspect's edges (a screenshot of a tall page, a quarter of a screenshot).
  for (const share of [1, 0.5]) {
    const s = suspect.width / (share * W);
    if (s * H * (share === 1 ? 1 : 0.5) < suspect.height * 1.12 && share === 1) continue;
    for (const right of share === 1 ? [false] : [false, true]) {
      const tx = right ? suspect.width - s * W : 0;
      out.push({ s, theta: 0, tx, ty: 0 });
      out.push({ s, theta: 0, tx, ty: suspect.height - s * H });
    }
  }
  if (!box) return out;
  const placed = boxHypotheses(box, W, H);
  // Both side edges seen, the page lighter than its surround: their distance is
  // the page's width, so a place at another scale (the image's own shape read as a page or a
  // quarter of one) is not the page. A binarised screenshot that kept only the darkest cores of
  // the letters fitted such places on wrong pages better than its own place.
  if (box.left && box.right && !box.doubtful) {
    const scale = sideDistance(box.left, box.right, box.theta) / W;
    return [...out.filter((t) => Math.abs(t.s / scale - 1) < 0.03), ...placed];
  }
  return [...out, ...placed];
}

/**
 * A page seen on a surround: its visible edges give where it is, and how it is turned. With both
 * side edges visible their distance gives the scale; with one of them cut off (a quarter of a
 * screenshot) the scale is searched, 3 % apart, from the visible corner. With neither the top nor
 * the bottom edge visible (a page taller than the screen, scrolled), where the page is along its
 * side edge is not known: that is a slide (pageSlides), searched per page by the trace.
 */
export function boxHypotheses(box: PageBox, W: number, H: number): Transform[] {
  const out: Transform[] = [];
  const { left, right, top, bottom, theta } = box;
  const side = left ?? right;
  if (!side) return out;
  const scale = left && right ? sideDistance(left, right, theta) / W : null;
  // The corner a side and the top or bottom edge meet at, and which corner of the page it is.
  const corners: Array<{ at: [number, number]; x: number; y: number }> = [];
  for (const [edge, x] of [
    [left, 0],
    [right, W],
  ] as const) {
    if (!edge) continue;
    if (top) corners.push({ at: meet(edge, top), x, y: 0 });
    if (bottom) corners.push({ at: meet(edge, bottom), x, y: H });
  }
  for (const corner of corners) {
    if (scale) out.push(pinned(scale, theta, corner.x, corner.y, corner.at));
    else for (let s = 0.25; s <= 3; s *= 1.03) out.push(pinned(s, theta, corner.x, corner.y, corner.at));
  }
  return out;
}

/**
 * Where along its visible side edge a page may be, when the suspect may show neither its top nor
 * its bottom: for each scale, the transform that puts the page's corner (0, 0) (or (W, 0) for a right
 * edge) on the edge line at the suspect's top row; the page then slides along the edge (slid).
 * Empty when the box places the page otherwise (or there is no box).
 */
export function pageSlides(box: PageBox | null, width: number): Transform[] {
  if (!box) return [];
  const { left, right, theta } = box;
  const side = left ?? right;
  // A top or bottom edge may be where the screen cuts a scrolled page (under the reader's toolbar),
  // not the page's own: with both sides seen (one scale, cheap) the page slides anyway; with one
  // side the scale is unknown too, and the corner's hypotheses stand alone.
  if (!side || (!(left && right) && (box.top || box.bottom))) return [];
  const W = FRAME_WIDTH;
  const scales: number[] = [];
  if (left && right) scales.push(sideDistance(left, right, theta) / W);
  else {
    // The page reaches past the image on its cut side: at least as wide as what is seen of it.
    const least = Math.max(0.25, (left ? width - side.a : side.a) / W);
    for (let s = least; s <= 4 * least; s *= 1.02) scales.push(s);
  }
  return scales.map((s) => pinned(s, theta, left ? 0 : W, 0, [side.a, 0]));
}

/** The transform moved along the page's y axis by `dy` frame pixels. */
export function slid(t: Transform, dy: number): Transform {
  return { ...t, tx: t.tx - Math.sin(t.theta) * t.s * dy, ty: t.ty + Math.cos(t.theta) * t.s * dy };
}

/** The transform of scale `s` and turn `theta` that puts frame point (x, y) at suspect point `at`. */
function pinned(s: number, theta: number, x: number, y: number, at: [number, number]): Transform {
  const [u, v] = apply({ s, theta, tx: 0, ty: 0 }, x, y);
  return { s, theta, tx: at[0] - u, ty: at[1] - v };
}

/** The distance between two side edges, across them. */
function sideDistance(left: Edge, right: Edge, theta: number): number {
  return Math.abs(right.a - left.a) * Math.cos(theta);
}

/** Where a side edge (x = a + b y) meets a top or bottom edge (y = a + b x). */
function meet(side: Edge, across: Edge): [number, number] {
  const x = (side.a + side.b * across.a) / (1 - side.b * across.b);
  return [x, across.a + across.b * x];
}

/** A straight edge of the page in the suspect: x = a + b y for a side, y = a + b x for the top or bottom. */
export interface Edge {
  a: number;
  b: number;
}

/** Where a screenshot shows the page on its surround: its visible edges (missing where the image cuts it off) and its turn. */
export interface PageBox {
  left?: Edge;
  right?: Edge;
  top?: Edge;
  bottom?: Edge;
  theta: number;
  /** The page inside is not lighter than the surround: maybe a page's own dark band, not a surround. */
  doubtful?: boolean;
}

/** How dark a surround is at most (the reader's is about 26). */
const SURROUND_MAX = 80;

/**
 * A page shown on a dark surround of one colour (the reader's), maybe turned, maybe on a canvas
 * grown to fit the turn: each row is scanned from either end for a run of the surround that starts
 * near the image's edge and ends where the page begins, each column likewise; a straight line
 * through most of a side's points (fitted robustly, so that the page's own dark parts, a chart or a
 * bold rule, do not move it) is that edge of the page. Null for no such page (the suspect is the
 * page itself). A wrong box costs nothing but a few hypotheses: the suspect's own shape is tried too.
 */
export function pageBox(image: Grey): PageBox | null {
  const { width, height } = image;
  const scans = {
    left: edgePoints(image, false, false),
    right: edgePoints(image, false, true),
    top: edgePoints(image, true, false),
    bottom: edgePoints(image, true, true),
  };
  // The surround's colour: that of the side with the most points (a chart's edge is not the surround).
  const most = Object.values(scans).reduce((x, y) => (y.length > x.length ? y : x));
  if (most.length < 0.1 * Math.min(width, height)) return null;
  const surround = median(most.map((p) => p.colour));
  const box: PageBox = { theta: 0 };
  const angles: Array<{ theta: number; weight: number }> = [];
  for (const side of ["left", "right", "top", "bottom"] as const) {
    const points = scans[side].filter((p) => Math.abs(p.colour - surround) <= 12);
    const lines = side === "left" || side === "right" ? height : width;
    const edge = fitLine(points, lines);
    if (!edge) continue;
    box[side] = edge;
    angles.push({ theta: side === "left" || side === "right" ? -Math.atan(edge.b) : Math.atan(edge.b), weight: edge.n });
  }
  // A page on a surround shows a side edge (a lone top or bottom edge is more likely a dark band of
  // the page itself, and places nothing without a side).
  if (!box.left && !box.right) return null;
  // The page is most of a screenshot and lighter than its surround: a dark cover's edge found near
  // the image's border (everything else "surround") is not a page box.
  const [x0, x1] = [box.left?.a ?? 0, box.right?.a ?? width];
  const [y0, y1] = [box.top?.a ?? 0, box.bottom?.a ?? height];
  if (x1 - x0 < 0.3 * width || y1 - y0 < 0.3 * height || (x1 - x0) * (y1 - y0) < 0.3 * width * height) return null;
  let sum = 0;
  let n = 0;
  for (let y = Math.ceil(y0); y < Math.floor(y1); y += 4) {
    for (let x = Math.ceil(x0); x < Math.floor(x1); x += 4) {
      sum += image.data[y * width + x] as number;
      n++;
    }
  }
  // A page darker than that (a page of black bands, a dark photograph) may still be on the reader's
  // surround: with two edges seen the box is kept, marked doubtful, and the trace tries the suspect
  // without it first (trace-core.ts).
  const doubtful = !n || sum / n < surround + 40;
  if (doubtful && [box.left, box.right, box.top, box.bottom].filter(Boolean).length < 2) return null;
  if (doubtful) box.doubtful = true;
  const weight = angles.reduce((sum, x) => sum + x.weight, 0);
  box.theta = angles.reduce((sum, x) => sum + x.theta * x.weight, 0) / weight;
  if (box.left && box.right && sideDistance(box.left, box.right, box.theta) < 0.2 * width) return null;
  for (const side of ["left", "right", "top", "bottom"] as const) if (box[side]) box[side] = { a: box[side].a, b: box[side].b };
  return box;
}

/**
 * The suspect's surround left out (NaN, in place: a 10 MP suspect has no room for a copy), so that
 * only the page is compared with the stored pages and read. A surround, and a toolbar on it, is
 * dark and flat; compared, a binarised screenshot's black surround fits a page's dark band anywhere
 * (a wrong page, at five times the scale, fitting 0.99). pageBox accepts a box only where it is
 * plausible (a side edge, most of the image inside, lighter than the surround), so a page's own
 * dark band at its edge is not taken for a surround and hidden.
 */
export function leaveOutSurround(image: Grey, box: PageBox | null): Grey {
  if (!box) return image;
  const { width, height, data } = image;
  const { left, right, top, bottom } = box;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const outside =
        (left && x + 0.5 < left.a + left.b * y) ||
        (right && x + 0.5 > right.a + right.b * y) ||
        (top && y + 0.5 < top.a + top.b * x) ||
        (bottom && y + 0.5 > bottom.a + bottom.b * x);
      if (outside) data[y * width + x] = Number.NaN;
    }
  }
  return image;
}

interface EdgePoint {
  line: number;
  at: number;
  colour: number;
}

/**
 * For each row (or column) scanned from its start (or end): a run of at least three pixels of one
 * dark colour that begins within the first 8 % of the line (after whatever a turn's grown canvas
 * put there) and is followed by a pixel clearly lighter (the page's edge, at the first lighter pixel).
 */
function edgePoints({ width, height, data }: Grey, columns: boolean, fromEnd: boolean): EdgePoint[] {
  const lines = columns ? width : height;
  const length = columns ? height : width;
  const at = (line: number, i: number) => {
    const k = fromEnd ? length - 1 - i : i;
    return data[columns ? k * width + line : line * width + k] as number;
  };
  const reach = Math.max(4, Math.round(0.08 * length));
  const out: EdgePoint[] = [];
  for (let line = 0; line < lines; line++) {
    let i = 0;
    while (i < reach && at(line, i) > SURROUND_MAX) i++;
    if (i >= reach) continue;
    const colour = at(line, i);
    let end = i;
    while (end < length && Math.abs(at(line, end) - colour) <= 10) end++;
    if (end - i < 3 || end >= length - 1) continue;
    // The page begins: lighter than the surround, here or within a pixel of antialiasing.
    const next = Math.max(at(line, end), at(line, end + 1));
    if (next < colour + 24) continue;
    const position = fromEnd ? length - end : end;
    out.push({ line, at: position, colour });
  }
  return out;
}

/**
 * The line through most of the points (at = a + b * line), robust to a minority of others: the
 * slope is the median of slopes between points half the list apart, the offset the median
 * residual, then a least-squares fit of the points within 2 px. Null when fewer than a sixth of the
 * lines have a point on it, or fewer than half of the points are.
 */
function fitLine(points: EdgePoint[], lines: number): (Edge & { n: number }) | null {
  if (points.length < Math.max(12, lines / 6)) return null;
  const half = points.length >> 1;
  const slopes: number[] = [];
  for (let i = 0; i + half < points.length; i++) {
    const p = points[i] as EdgePoint;
    const q = points[i + half] as EdgePoint;
    if (q.line !== p.line) slopes.push((q.at - p.at) / (q.line - p.line));
  }
  if (!slopes.length) return null;
  let b = median(slopes);
  let a = median(points.map((p) => p.at - b * p.line));
  const inliers = points.filter((p) => Math.abs(p.at - (a + b * p.line)) <= 2);
  if (inliers.length < Math.max(12, points.length / 2, lines / 6)) return null;
  const n = inliers.length;
  const mx = inliers.reduce((s, p) => s + p.line, 0) / n;
  const my = inliers.reduce((s, p) => s + p.at, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of inliers) {
    sxx += (p.line - mx) ** 2;
    sxy += (p.line - mx) * (p.at - my);
  }
  if (sxx > 0) {
    b = sxy / sxx;
    a = my - b * mx;
  }
  // Nearly straight, as a page is: more than 5 degrees is not the page's edge.
  if (Math.abs(b) > 0.09) return null;
  return { a, b, n };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

/** Width of a page's detail, the stage between the thumbnail and the registration. */
export const DETAIL_WIDTH = 128;

/** A 1024 px page at 128 px, unblurred: what the trace index keeps of each page (as bytes). */
export function pageDetail(page: Grey): Grey {
  // A 1024 px page halves three times to exactly 128 px: 2 x 2 means, far cheaper than a general resize.
  let small = page;
  while (small.width >= 2 * DETAIL_WIDTH && small.width % 2 === 0) small = halve(small);
  return small.width === DETAIL_WIDTH ? small : resizeTo(small, DETAIL_WIDTH);
}

/** The 64 px thumbnail of a page's detail, slightly blurred so that a degree of turn or a few pixels of shift do not matter. */
export function thumbnailOf(detail: Grey): Grey {
  return blurValid(halve(detail));
}

/** A page's 64 px thumbnail (thumbnailOf its detail). */
export function thumbnail(page: Grey): Grey {
  return thumbnailOf(pageDetail(page));
}

/** The suspect under a hypothesis, as a thumbnail of the page's size (step 2): compared with toneFit. */
export function suspectThumbnail(levels: Grey[], t: Transform, like: Grey): Grey {
  return blurValid(warpToFrame(levels, t, like.width, like.height));
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

/** The page rendered at `width` px for the search, from the 1024 px frame. */
export type PageLevels = Map<number, Grey>;

export function pageLevels(page: Grey): PageLevels {
  const levels: PageLevels = new Map([[FRAME_WIDTH, page]]);
  let last = page;
  for (const width of [512, 256, 128]) {
    last = halve(last);
    levels.set(width, last);
  }
  return levels;
}

/** Step 3: the transform refined by a pattern search, with its correlation at 512 px. */
const REFINE_STEPS = [
  { width: 128, move: 4, turn: 0.5 * DEGREE, scale: 0.02, rounds: 12 },
  { width: 256, move: 2, turn: 0.2 * DEGREE, scale: 0.008, rounds: 8 },
  { width: 512, move: 1, turn: 0.08 * DEGREE, scale: 0.003, rounds: 6 },
];

/**
 * What a screenshot's page box measured, which the registration keeps: the turn (from the slope of
 * a long straight edge) and where a side of the page is (frame x `side`: 0 for the left edge, the
 * frame's width for the right); with both sides seen, the scale too.
 */
export interface SeenEdges {
  side: number;
  both: boolean;
  /** The top and bottom edges seen: kept when the hypothesis being refined puts the page's own top (or bottom) there. */
  top?: Edge;
  bottom?: Edge;
}

export function seenEdges(box: PageBox | null): SeenEdges | null {
  if (!box?.left && !box?.right) return null;
  return { side: box.left ? 0 : FRAME_WIDTH, both: Boolean(box.left && box.right), top: box.top, bottom: box.bottom };
}

/**
 * Which of the page's corners on the seen side (frame y 0 or `height`) the hypothesis puts on a
 * seen top or bottom edge (within 2 px): the page's own corner, kept. Null for none (a slide: the
 * edge is where the screen cuts a scrolled page).
 */
function keptCorner(t: Transform, seen: SeenEdges, height: number): number | null {
  for (const [edge, y] of [
    [seen.top, 0],
    [seen.bottom, height],
  ] as const) {
    if (!edge) continue;
    const [u, v] = apply(t, seen.side, y);
    if (Math.abs(v - (edge.a + edge.b * u)) <= 2) return y;
  }
  return null;
}

/**
 * Step 3 at the given widths of the page (128, 256, 512: coarse to fine). With `seen` edges the
 * search keeps them: the page moves along its side and scales about it, and does not turn; where
 * the hypothesis puts the page's corner on a seen top or bottom edge, it stays there too and only
 * the scale is searched (about that corner). Left free, a quarter of a screenshot showing two lines
 * of text drifted 1.7 degrees, or 4 px off the edge it was placed on, to a place that fits the
 * text as well and reads no mark.
 */
export function refine(
  page: PageLevels,
  levels: Grey[],
  start: Transform,
  widths: number[] = [128, 256, 512],
  seen: SeenEdges | null = null,
): { transform: Transform; score: number } {
  const suspect = levels[0] as Grey;
  let t = { ...start };
  let score = -1;
  const corner = seen ? keptCorner(start, seen, (page.get(FRAME_WIDTH) as Grey).height) : null;
  for (const { width, move, turn, scale, rounds } of REFINE_STEPS.filter((step) => widths.includes(step.width))) {
    const reference = page.get(width) as Grey;
    const step = width >= 512 ? 4 : 2;
    const target = subsample(reference, step);
    const unit = (FRAME_WIDTH / width) * t.s; // suspect px per level px
    const evaluate = (candidate: Transform) =>
      toneFit(target, warpToFrame(levels, candidate, reference.width, reference.height, step), 0.06);
    score = evaluate(t);
    let sizes = { move: move * unit, turn, scale };
    for (let round = 0; round < rounds; round++) {
      let improved = false;
      const moves: Array<(x: Transform) => Transform> = [];
      // Up and down the image, or with a seen side along that side (a turned page's edge slants).
      if (corner === null && !seen)
        moves.push(
          (x) => ({ ...x, ty: x.ty + sizes.move }),
          (x) => ({ ...x, ty: x.ty - sizes.move }),
        );
      if (corner === null && seen)
        moves.push(
          (x) => slid(x, sizes.move / x.s),
          (x) => slid(x, -sizes.move / x.s),
        );
      if (!seen) {
        moves.push(
          (x) => ({ ...x, tx: x.tx + sizes.move }),
          (x) => ({ ...x, tx: x.tx - sizes.move }),
          (x) => turnAbout(x, sizes.turn, suspect),
          (x) => turnAbout(x, -sizes.turn, suspect),
        );
      }
      if (!seen?.both) {
        moves.push(
          (x) => scaleAbout(x, 1 + sizes.scale, suspect, seen?.side, corner),
          (x) => scaleAbout(x, 1 / (1 + sizes.scale), suspect, seen?.side, corner),
        );
      }
      for (const next of moves) {
        const candidate = next(t);
        const value = evaluate(candidate);
        if (value > score) {
          score = value;
          t = candidate;
          improved = true;
        }
      }
      if (!improved) {
        sizes = { move: sizes.move / 2, turn: sizes.turn / 2, scale: sizes.scale / 2 };
        if (sizes.move < 0.2 * unit) break;
      }
    }
  }
  return { transform: t, score };
}

/** Turned about the page point at the suspect's centre, so that a turn does not also slide what it shows. */
function turnAbout(t: Transform, by: number, suspect: Grey): Transform {
  const [cx, cy] = invert(t, suspect.width / 2, suspect.height / 2);
  return keepPoint(t, { ...t, theta: t.theta + by }, cx, cy);
}

/** Scaled about the page point at the suspect's centre, or about the point level with it (or at frame y `y`) on the page's side at frame x `side`. */
function scaleAbout(t: Transform, by: number, suspect: Grey, side?: number, y: number | null = null): Transform {
  const [cx, cy] = invert(t, suspect.width / 2, suspect.height / 2);
  return keepPoint(t, { ...t, s: t.s * by }, side ?? cx, y ?? cy);
}

/** `next` moved so that frame point (x, y) lands where `before` put it. */
function keepPoint(before: Transform, next: Transform, x: number, y: number): Transform {
  return pinned(next.s, next.theta, x, y, apply(before, x, y));
}

/** The frame point a suspect pixel shows. */
export function invert(t: Transform, u: number, v: number): [number, number] {
  const cos = Math.cos(t.theta) / t.s;
  const sin = Math.sin(t.theta) / t.s;
  const du = u - t.tx;
  const dv = v - t.ty;
  return [cos * du + sin * dv, -sin * du + cos * dv];
}

export function apply(t: Transform, x: number, y: number): [number, number] {
  const cos = Math.cos(t.theta) * t.s;
  const sin = Math.sin(t.theta) * t.s;
  return [cos * x - sin * y + t.tx, sin * x + cos * y + t.ty];
}
