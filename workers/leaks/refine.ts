import { apply, DEGREE, FRAME_WIDTH, invert, pinned, slid, type Transform, warpToFrame } from "./frame.ts";
import { type Grey, halve, subsample } from "./grey.ts";
import type { Edge, PageBox } from "./page-box.ts";
import { toneFit } from "./tone-fit.ts";

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
