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
 *
 * Step 1 is here; the pieces live beside it: grey.ts (grey images and their sizes), frame.ts (the
 * frame and the similarity), page-box.ts (a page on a surround), thumbnails.ts and tone-fit.ts
 * (step 2's comparison), refine.ts (step 3); trace-core.ts runs the steps.
 */
import { DEGREE, FRAME_WIDTH, pinned, type Transform } from "./frame.ts";
import type { Grey } from "./grey.ts";
import { type Edge, type PageBox, sideDistance } from "./page-box.ts";

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

/** Where a side edge (x = a + b y) meets a top or bottom edge (y = a + b x). */
function meet(side: Edge, across: Edge): [number, number] {
  const x = (side.a + side.b * across.a) / (1 - side.b * across.b);
  return [x, across.a + across.b * x];
}
