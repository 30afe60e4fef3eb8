/** A page on the reader's dark surround in a screenshot: its edges, its turn, and the surround left out (docs/decisions/0025-leak-trace.md). */
import type { Grey } from "./grey.ts";

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

/** The distance between two side edges, across them. */
export function sideDistance(left: Edge, right: Edge, theta: number): number {
  return Math.abs(right.a - left.a) * Math.cos(theta);
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
