import {
  FRAME_WIDTH,
  type Grey,
  halveValid,
  hypotheses,
  type PageLevels,
  pageBox,
  pageLevels,
  pyramid,
  refine,
  resizeTo,
  suspectThumbnail,
  type Transform,
  toneFit,
  warpToFrame,
} from "./locate.ts";
import { CODE_BITS, codeScore, type MarkLayout, readMark } from "./mark.ts";

/**
 * The trace without the platform (docs/decisions/0025-leak-trace.md): which stored page a suspect
 * image shows, where, and which (teacher, day) codes its hidden mark carries. Used by
 * POST /api/leaks/trace (trace.ts) and by `npm run bench:trace` in Node.
 */

/** A stored page the suspect may show: its 32 px thumbnail now, its 1024 px luma when asked. */
export interface StoredPage {
  bookId: number;
  page: number;
  /** Height of the 1024 px rendition. */
  height: number;
  thumb: Grey;
  load(): Promise<Uint8Array>;
}

/** A (teacher, day) that may have received the page, with its code under each key. */
export interface Candidate {
  teacherId: number;
  day: string;
  codes: Uint8Array[];
}

export interface Found {
  page: StoredPage;
  transform: Transform;
  /** Correlation of the registered suspect with the page at 512 px. */
  fit: number;
  matches: Array<{ candidate: Candidate; score: number; confidence: number }>;
}

/** A code scoring this high (out of 16) is in the image: a code it does not carry scores like N(0, 1). */
export const MIN_SCORE = 7;
/** Page hypotheses refined after the thumbnail round. */
const REFINED = 12;
/** Of those, refined to 512 px (and read when the best carries no mark). */
const FINE = 6;
/** Hypotheses of one page registered at most (its top or its bottom in a screenshot, scales of a cut page). */
const PER_PAGE = 3;
/** The least of a page a suspect must show to be compared with it: a quarter of a screenshot shows a tenth. */
const MIN_SHARE = 0.06;
/** Pages whose every hypothesis is scored again at full thumbnail size. */
const SHORTLIST = 40;
/** Below this fit after refining, the suspect does not show the page. */
const MIN_FIT = 0.3;

/**
 * Finds the page and reads the mark. `keys` are the layouts of the readable secrets (current first);
 * `candidatesFor(bookId)` the (teacher, day) pairs that may have read the book, with their codes
 * under the same keys in the same order.
 */
export async function traceImage(
  suspect: Grey,
  pages: StoredPage[],
  keys: MarkLayout[],
  candidatesFor: (bookId: number) => Promise<Candidate[]>,
): Promise<Found | null> {
  const box = pageBox(suspect);
  const levels = pyramid(suspect);
  // The suspect under each hypothesis at thumbnail size: one warp per hypothesis and page height,
  // not per page. Every (page, hypothesis) is scored at half the thumbnail's size first, the best
  // SHORTLIST again at full thumbnail size.
  const views = new Map<number, Array<{ start: Transform; small: Grey; view: Grey }>>();
  const first: Array<{ page: StoredPage; hypothesis: { start: Transform; small: Grey; view: Grey }; score: number }> = [];
  for (const page of pages) {
    let list = views.get(page.height);
    if (!list) {
      list = hypotheses(suspect, page.height, box).map((start) => {
        const view = suspectThumbnail(levels, start, page.thumb);
        return { start, view, small: halveValid(view) };
      });
      views.set(page.height, list);
    }
    const small = halveValid(page.thumb);
    for (const hypothesis of list) first.push({ page, hypothesis, score: toneFit(small, hypothesis.small, MIN_SHARE, 16) });
  }
  // The best pages at 32 px (each by its best hypothesis), then every hypothesis of those pages at
  // 64 px: at 32 px a binarised quarter of a page can rank its own hypothesis below others of the page.
  const bestOf = new Map<StoredPage, number>();
  for (const { page, score } of first) bestOf.set(page, Math.max(score, bestOf.get(page) ?? -1));
  const shortlisted = new Set(
    [...bestOf]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SHORTLIST)
      .map(([page]) => page),
  );
  const ranked = first
    .filter(({ page }) => shortlisted.has(page))
    .map(({ page, hypothesis }) => ({ page, start: hypothesis.start, score: toneFit(page.thumb, hypothesis.view, MIN_SHARE, 24) }));
  ranked.sort((a, b) => b.score - a.score);
  // Coarse registration (128 px) of the best few pages, then the two best refined to 512 px.
  const coarse: Array<{ page: StoredPage; luma: Uint8Array; frame: PageLevels; transform: Transform; fit: number }> = [];
  // Up to two hypotheses a page: a page seen in a screenshot may fit its top or its bottom first.
  const tried = new Map<StoredPage, { luma: Uint8Array; frame: PageLevels; count: number }>();
  for (const { page, start } of ranked) {
    if (coarse.length >= REFINED) break;
    let seen = tried.get(page);
    if (seen && seen.count >= PER_PAGE) continue;
    if (!seen) {
      const luma = await page.load();
      seen = { luma, frame: pageLevels(greyOf(luma, FRAME_WIDTH, page.height)), count: 0 };
      tried.set(page, seen);
    }
    seen.count++;
    const { luma, frame } = seen;
    const { transform, score } = refine(frame, levels, start, [128]);
    coarse.push({ page, luma, frame, transform, fit: score });
  }
  coarse.sort((a, b) => b.fit - a.fit);
  const fine: Array<(typeof coarse)[number]> = [];
  for (const candidate of coarse.slice(0, FINE)) {
    const { transform, score } = refine(candidate.frame, levels, candidate.transform, [256, 512]);
    if (score >= MIN_FIT) fine.push({ ...candidate, transform, fit: score });
  }
  if (!fine.length) return null;
  fine.sort((a, b) => b.fit - a.fit);
  // The best fit is read first; a page that fits almost as well (two pages of one template, a
  // binarised quarter) is read too when the first carries no mark: the mark decides between them.
  let best: Found | null = null;
  for (const candidate of fine) {
    if (best && candidate.fit < best.fit - 0.3) break;
    const found = await readFound(candidate, levels, keys, candidatesFor);
    if (found.matches.length) return found;
    best ??= found;
  }
  return best;
}

async function readFound(
  { page, luma, transform, fit }: { page: StoredPage; luma: Uint8Array; transform: Transform; fit: number },
  levels: Grey[],
  keys: MarkLayout[],
  candidatesFor: (bookId: number) => Promise<Candidate[]>,
): Promise<Found> {
  // The mark is read at the suspect's own resolution of the page (never above 1024 px): compared
  // with a sharp page, a page scaled down and up again differs most at the edges, where the mark is.
  const readWidth = Math.max(128, Math.min(FRAME_WIDTH, Math.round(FRAME_WIDTH * transform.s)));
  const readHeight = Math.max(1, Math.round((page.height * readWidth) / FRAME_WIDTH));
  const original =
    readWidth === FRAME_WIDTH
      ? luma
      : Uint8Array.from(resizeTo(greyOf(luma, FRAME_WIDTH, page.height), readWidth, readHeight).data, Math.round);
  const warped = warpToFrame(levels, transform, readWidth, readHeight);
  const softs = keys.map((layout) => readMark(original, warped.data, readWidth, readHeight, layout));
  const candidates = await candidatesFor(page.bookId);
  const matches: Found["matches"] = [];
  for (const candidate of candidates) {
    let score = Number.NEGATIVE_INFINITY;
    candidate.codes.forEach((code, k) => {
      score = Math.max(score, codeScore(softs[k] as Float64Array, code));
    });
    if (score >= MIN_SCORE) matches.push({ candidate, score, confidence: confidence(score, candidates.length * keys.length) });
  }
  matches.sort((a, b) => b.score - a.score);
  return { page, transform, fit, matches };
}

function greyOf(luma: Uint8Array, width: number, height: number): Grey {
  return { width, height, data: Float32Array.from(luma) };
}

/**
 * How sure: one minus the chance that any of `tried` codes the image does not carry scores this
 * high (each like a standard normal variable), never shown as certain.
 */
export function confidence(score: number, tried: number): number {
  const falseAlarm = Math.min(1, tried * normalTail(score));
  return Math.min(0.999999, Math.max(0, 1 - falseAlarm));
}

/** P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26 via erfc). */
function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return x >= 0 ? erfc / 2 : 1 - erfc / 2;
}

export { CODE_BITS };
