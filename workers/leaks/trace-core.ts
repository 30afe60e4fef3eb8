import { CODE_BITS, codeScore, flatInk, joinSoft, type MarkLayout, readMark, readStampMark, toneCurve } from "../stamp/mark.ts";
import { stampPrediction } from "../stamp/watermark.ts";
import { FRAME_WIDTH, slid, type Transform, warpToFrame } from "./frame.ts";
import { blurValid, type Grey, halveValid, pyramid, resizeTo, validRows } from "./grey.ts";
import { boxHypotheses, hypotheses, pageSlides } from "./locate.ts";
import { leaveOutSurround, type PageBox, pageBox } from "./page-box.ts";
import { type PageLevels, pageLevels, refine, seenEdges } from "./refine.ts";
import { suspectThumbnail, THUMB_WIDTH } from "./thumbnails.ts";
import { toneFit } from "./tone-fit.ts";

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
  /** 64 px wide, blurred (locate.ts, thumbnail). */
  thumb: Grey;
  /** 128 px wide, blurred (locate.ts, detail): made when the page is shortlisted. */
  detail(): Grey;
  load(): Promise<Uint8Array>;
}

/** A (teacher, day) that may have received the page, with its code under each key. */
export interface Candidate {
  teacherId: number;
  day: string;
  codes: Uint8Array[];
  /** The lines of the visible stamp the teacher's pages carried that day, when known: its tiles carry the mark too. */
  stamp?: string[];
}

export interface Found {
  page: StoredPage;
  transform: Transform;
  /** Correlation of the registered suspect with the page at 512 px. */
  fit: number;
  matches: Array<{ candidate: Candidate; score: number; confidence: number }>;
  /** The best score of any code tried, named or not, and the score a code needed (scoreNeeded). */
  best: number;
  needed: number;
}

/**
 * The chance a trace may name someone whose code the image does not carry, whatever the number of
 * codes it tries: one in a million traces.
 */
export const FALSE_ALARM = 1e-6;

/**
 * The score (out of 16) a code needs to be named, when `tried` codes were scored. A code the image
 * does not carry scores a sum of the soft bits with random signs, divided by their norm: whatever
 * the bits (a sparse page gives a few large ones), Hoeffding's bound holds for it, P(score > z) <=
 * exp(-z^2 / 2), so any of `tried` reaches z with a chance of at most tried * exp(-z^2 / 2). The
 * threshold is where that is FALSE_ALARM: 5.9 for 40 codes, 7.0 for 50,000 (trace.ts's cap of candidates), 7.1
 * for 100,000 (that cap under two keys).
 */
export function scoreNeeded(tried: number): number {
  return Math.sqrt(2 * Math.log(Math.max(1, tried) / FALSE_ALARM));
}
/** Page hypotheses refined after the thumbnail round, for a suspect showing a whole page; up to MAX_REFINED for a quarter of one. */
const REFINED = 12;
const MAX_REFINED = 48;
/** Of those, refined to 512 px (and read when the best carries no mark). */
const FINE = 6;
/** Hypotheses of one page registered at most (its top or its bottom in a screenshot, scales of a cut page). */
const PER_PAGE = 3;
/** The least of a page a suspect must show to be compared with it: a quarter of a screenshot shows a tenth. */
const MIN_SHARE = 0.06;
/** Pages whose best hypotheses are scored again at 128 px. */
const SHORTLIST = 40;
/** Hypotheses a page keeps from the 64 px round. */
const PER_PAGE_KEPT = 6;
/**
 * What a slide's place gives up at 64 px when the page's top or bottom edge may be in view (only
 * there: the 128 px round scores it as it is). Smaller, a binarised screenshot's strip fits wrong
 * pages' places well enough to crowd its own page out (2 of 16 lost at 0.05 and 0.15).
 */
const SLIDE_DOUBT = 0.3;
/** Places along a slide a page keeps from the 32 px scan. */
const SLIDE_KEPT = 6;
/**
 * Peaks along a slide's strip at 32 px placed again at 64 px, for each scale. At 32 px a few half
 * lines of text fit other places of their page about as well as their own: the best one alone lost
 * the right place of 5 in 8 screenshot quarters kept from the bench.
 */
const SLIDE_PEAKS = 6;
/**
 * Below this fit at 512 px, the suspect does not show the page. A screenshot binarised near black
 * keeps the cores of the letters only: placed exactly by its box on its own page, it fits 0.25.
 */
const MIN_FIT = 0.2;

/**
 * Finds the page and reads the mark. `keys` are the layouts of the readable secrets (current first);
 * `candidatesFor(bookId)` the (teacher, day) pairs that may have read the book, with their codes
 * under the same keys in the same order. The suspect's surround is overwritten (NaN) in place.
 */
export async function traceImage(
  suspect: Grey,
  pages: StoredPage[],
  keys: MarkLayout[],
  candidatesFor: (bookId: number) => Promise<Candidate[]>,
): Promise<Found | null> {
  // Several places (and both passes) may be read on pages of one book: its candidates are asked for once.
  const asked = new Map<number, Promise<Candidate[]>>();
  const once = (bookId: number) => {
    const candidates = asked.get(bookId) ?? candidatesFor(bookId);
    asked.set(bookId, candidates);
    return candidates;
  };
  const box = pageBox(suspect);
  if (!box?.doubtful) return traceWith(suspect, box, pages, keys, once, 1);
  // A dark page may be on the reader's surround, or the surround may be the page's own dark band:
  // the suspect as it is first (leaving nothing out), then without what the box calls surround.
  // Both passes read the codes, so each counts them twice (scoreNeeded): the one-in-a-million
  // bound holds for the trace, not for each pass.
  const whole = await traceWith(suspect, null, pages, keys, once, 2);
  if (whole?.matches.length) return whole;
  return (await traceWith(suspect, box, pages, keys, once, 2)) ?? whole;
}

async function traceWith(
  suspect: Grey,
  box: PageBox | null,
  pages: StoredPage[],
  keys: MarkLayout[],
  candidatesFor: (bookId: number) => Promise<Candidate[]>,
  /** How many passes of the trace read codes for this suspect (each reads them all). */
  passes: number,
): Promise<Found | null> {
  const levels = pyramid(leaveOutSurround(suspect, box));
  // Every (page, hypothesis) at thumbnail size (64 px): the suspect warped once per hypothesis and
  // page height, not per page; the hypotheses of a slide (a page scrolled past the screenshot's
  // top and bottom) placed per page. Each page keeps its best few.
  const views = new Map<number, Array<{ start: Transform; view: Grey }>>();
  const perPage = new Map<StoredPage, Array<{ start: Transform; score: number }>>();
  const keep = (page: StoredPage, start: Transform, score: number) => {
    if (score < 0) return;
    const list = perPage.get(page) ?? [];
    // The same place found twice (a corner of the box and a slide's row) keeps one slot.
    const twin = list.findIndex((other) => sameish(other.start, start));
    if (twin >= 0) {
      if ((list[twin] as { score: number }).score >= score) return;
      list.splice(twin, 1);
    }
    list.push({ start, score });
    list.sort((x, y) => y.score - x.score);
    if (list.length > PER_PAGE_KEPT) list.pop();
    perPage.set(page, list);
  };
  for (const page of pages) {
    let list = views.get(page.height);
    if (!list) {
      list = hypotheses(suspect, page.height, box).map((start) => ({ start, view: suspectThumbnail(levels, start, page.thumb) }));
      views.set(page.height, list);
    }
    for (const { start, view } of list) keep(page, start, toneFit(page.thumb, view, MIN_SHARE, 24));
  }
  // Where a top or bottom edge is seen, the page's own edge is the simpler story than a scrolled
  // page cut there: a slide's place must then fit clearly better to take a page's slot.
  const doubt = box?.top || box?.bottom ? SLIDE_DOUBT : 0;
  for (const { page, start, score } of slideHypotheses(levels, pageSlides(box, suspect.width), pages)) keep(page, start, score - doubt);
  // The best pages at 64 px, their hypotheses scored again at 128 px: at 64 px the pages of one
  // template (a novel's, a generated book's) look alike when the suspect shows a part of one. The
  // less of a page the suspect shows, the more pages go on: a 128 px comparison costs what the
  // suspect shows of the page, so the round costs about the same for a quarter as for a page.
  const byBest = [...perPage].sort((x, y) => (y[1][0]?.score ?? -1) - (x[1][0]?.score ?? -1));
  const lead = byBest[0]?.[1][0];
  const shown = lead ? Math.min(1, (suspect.width * suspect.height) / (lead.start.s ** 2 * FRAME_WIDTH * (byBest[0]?.[0].height ?? 1))) : 1;
  const shortlisted = byBest.slice(0, Math.ceil(SHORTLIST / Math.max(shown, 0.05)));
  const ranked: Array<{ page: StoredPage; start: Transform; score: number }> = [];
  const detailViews = new Map<string, { view: Grey; rows: [number, number] }>();
  // With both side edges and the top or bottom seen, the box places the page exactly: its places
  // go on to 128 px for every page shortlisted, whatever they scored at 64 px (a page of fine
  // stripes is a grey blur there, and places anywhere fit it as well as its own).
  const exact = box?.left && box.right && (box.top || box.bottom) ? box : null;
  for (const [page, list] of shortlisted) {
    const detail = page.detail();
    const starts = list.map(({ start }) => start);
    if (exact)
      for (const start of boxHypotheses(exact, FRAME_WIDTH, page.height))
        if (!starts.some((other) => sameish(other, start))) starts.push(start);
    for (const start of starts) {
      // One warp per hypothesis and page height here too.
      const key = `${page.height}:${start.s}:${start.theta}:${start.tx}:${start.ty}`;
      let seen = detailViews.get(key);
      if (!seen) {
        const view = suspectThumbnail(levels, start, detail);
        seen = { view, rows: validRows(view) };
        detailViews.set(key, seen);
      }
      ranked.push({ page, start, score: toneFit(detail, seen.view, MIN_SHARE, 32, 0, seen.rows) });
    }
  }
  ranked.sort((x, y) => y.score - x.score);
  // Coarse registration (128 px) of the best REFINED, then the FINE best refined to 512 px.
  const coarse: Array<{ page: StoredPage; luma: Uint8Array; frame: PageLevels; start: Transform; transform: Transform; fit: number }> = [];
  // A suspect that shows less of its page leaves more pages fitting about as well at 128 px (the
  // pages of one template): more of them are registered.
  const refined = Math.min(MAX_REFINED, Math.ceil(REFINED / Math.max(shown, 0.25)));
  const edges = seenEdges(box);
  // Up to PER_PAGE hypotheses a page: a page seen in a screenshot may fit its top or its bottom first.
  const tried = new Map<StoredPage, { luma: Uint8Array; frame: PageLevels; count: number }>();
  for (const { page, start } of ranked) {
    if (coarse.length >= refined) break;
    let seen = tried.get(page);
    if (seen && seen.count >= PER_PAGE) continue;
    if (!seen) {
      const luma = await page.load();
      seen = { luma, frame: pageLevels(greyOf(luma, FRAME_WIDTH, page.height)), count: 0 };
      tried.set(page, seen);
    }
    seen.count++;
    const { luma, frame } = seen;
    const { transform, score } = refine(frame, levels, start, [128], edges);
    coarse.push({ page, luma, frame, start, transform, fit: score });
  }
  // Each goes on to 256 px, where a line of text shows its words: at 128 px the pages of one
  // template (a novel's, a generated book's) fit a few lines of text about equally, at 256 px the
  // right one stands out (0.9 against at most 0.6 on the dev samples).
  for (const candidate of coarse) {
    const { transform, score } = refine(candidate.frame, levels, candidate.transform, [256], edges);
    candidate.transform = transform;
    candidate.fit = score;
  }
  coarse.sort((a, b) => b.fit - a.fit);
  // The FINE best places go on, and the best place of each next page until FINE pages have one:
  // the pages of one template fit a part of a page about equally (the mark decides), and the places
  // of a page of stripes do too.
  const fine: Array<(typeof coarse)[number]> = [];
  const pagesOn = new Set<StoredPage>();
  for (const [i, candidate] of coarse.entries()) {
    if (i >= FINE && (pagesOn.size >= FINE || pagesOn.has(candidate.page))) continue;
    pagesOn.add(candidate.page);
    const { transform, score } = refine(candidate.frame, levels, candidate.transform, [512], edges);
    if (score >= MIN_FIT) fine.push({ ...candidate, transform, fit: score });
  }
  if (!fine.length) return null;
  fine.sort((a, b) => b.fit - a.fit);
  // The best fit is read first; a place that fits almost as well (two pages of one template, a
  // binarised quarter) is read too when the first carries no mark: the mark decides between them.
  // Each read is a chance to name someone wrongly, so the one-in-a-million chance is shared out
  // before any is read: half to the best fit, the other half in equal parts to the rest.
  const read = fine.filter((candidate) => candidate.fit >= (fine[0]?.fit ?? 0) - 0.3);
  let best: Found | null = null;
  for (const [i, candidate] of read.entries()) {
    const share = read.length === 1 ? 1 : i === 0 ? 0.5 : 0.5 / (read.length - 1);
    const found = await readFound(candidate, levels, keys, candidatesFor, passes / share);
    if (found.matches.length) return found;
    best ??= found;
  }
  return best;
}

/**
 * A page along a slide (locate.ts, pageSlides): a screenshot shows neither the page's top nor its
 * bottom, so where the page is along its visible side edge is searched, for each page and scale:
 * the suspect is warped once per scale into a strip of the page's width in the page's frame, and
 * each page's 32 px thumbnail is slid along it a row at a time, then placed to the half row at 64 px.
 * A page keeps its SLIDE_KEPT best places, scored at 64 px as the other hypotheses are.
 */
function slideHypotheses(levels: Grey[], starts: Transform[], pages: StoredPage[]) {
  const out: Array<{ page: StoredPage; start: Transform; score: number }> = [];
  if (!starts.length) return out;
  const suspect = levels[0] as Grey;
  const unit = FRAME_WIDTH / THUMB_WIDTH;
  const strips = starts.map((start) => {
    // The strip covers the suspect's height in the frame and a turn's slant, from `pad` above the start.
    const pad = FRAME_WIDTH * Math.abs(Math.sin(start.theta)) + unit;
    const origin = slid(start, -pad);
    const rows = Math.ceil((suspect.height / (start.s * Math.cos(start.theta)) + 2 * pad) / unit);
    const fine = blurValid(warpToFrame(levels, origin, THUMB_WIDTH, rows));
    return { origin, fine, coarse: halveValid(fine) };
  });
  for (const page of pages) {
    const small = halveValid(page.thumb);
    // Along each scale's strip the best place at 32 px, then to the half row at 64 px (the row
    // found, or one either side); the page keeps its best few places by their 64 px score. With
    // one scale (both side edges seen) every half row is tried at 64 px: it costs what a scale scan
    // does, and at 32 px a binarised strip fits wrong places as well as its own.
    const best: Array<{ start: Transform; score: number }> = [];
    for (const strip of strips) {
      const shifts: number[] = [];
      if (strips.length === 1) {
        for (let shift = 1 - page.thumb.height; shift < strip.fine.height; shift++) shifts.push(shift);
      } else {
        const first = 1 - small.height;
        const scores: number[] = [];
        for (let shift = first; shift < strip.coarse.height; shift++) scores.push(toneFit(small, strip.coarse, MIN_SHARE, 16, shift));
        // The best few peaks along the strip: at 32 px a few lines of text fit other places of their
        // page, and of other pages, about as well as their own.
        const peaks = scores
          .map((score, i) => ({ score, shift: first + i }))
          .filter(({ score }, i) => score >= 0 && score >= (scores[i - 1] ?? -1) && score >= (scores[i + 1] ?? -1))
          .sort((x, y) => y.score - x.score)
          .slice(0, SLIDE_PEAKS);
        for (const peak of peaks) {
          let place = { score: -1, shift: 0 };
          for (const shift of [2 * peak.shift - 1, 2 * peak.shift, 2 * peak.shift + 1]) {
            const score = toneFit(page.thumb, strip.fine, MIN_SHARE, 24, shift);
            if (score > place.score) place = { score, shift };
          }
          if (place.score >= 0) best.push({ start: slid(strip.origin, place.shift * unit), score: place.score });
        }
        continue;
      }
      const places = shifts.map((shift) => ({ shift, score: toneFit(page.thumb, strip.fine, MIN_SHARE, 24, shift) }));
      places.sort((x, y) => y.score - x.score);
      for (const place of places.slice(0, SLIDE_KEPT)) {
        if (place.score >= 0) best.push({ start: slid(strip.origin, place.shift * unit), score: place.score });
      }
    }
    best.sort((x, y) => y.score - x.score);
    for (const { start, score } of best.slice(0, SLIDE_KEPT)) out.push({ page, start, score });
  }
  return out;
}

/** Two hypotheses that place the page within half a thumbnail pixel (8 frame px) of each other. */
function sameish(a: Transform, b: Transform): boolean {
  return (
    Math.abs(a.s / b.s - 1) < 0.01 && Math.abs(a.theta - b.theta) < 0.002 && Math.hypot(a.tx - b.tx, a.ty - b.ty) < 8 * Math.min(a.s, b.s)
  );
}

async function readFound(
  { page, luma, start, transform, fit }: { page: StoredPage; luma: Uint8Array; start: Transform; transform: Transform; fit: number },
  levels: Grey[],
  keys: MarkLayout[],
  candidatesFor: (bookId: number) => Promise<Candidate[]>,
  passes: number,
): Promise<Found> {
  // The mark is read at the suspect's own resolution of the page (never above 1024 px): compared
  // with a sharp page, a page scaled down and up again differs most at the edges, where the mark is.
  const readWidth = Math.max(128, Math.min(FRAME_WIDTH, Math.round(FRAME_WIDTH * transform.s)));
  const readHeight = Math.max(1, Math.round((page.height * readWidth) / FRAME_WIDTH));
  const original =
    readWidth === FRAME_WIDTH
      ? luma
      : Uint8Array.from(resizeTo(greyOf(luma, FRAME_WIDTH, page.height), readWidth, readHeight).data, Math.round);
  // Read where the registration put the page and, when the hypothesis it started from is within a
  // few pixels of that, there too: a hypothesis from the image's own shape (a quarter, half the
  // size) is exact for an exact crop or scale, and the registration, at 512 px, can leave it by a
  // pixel at the page's far side (0.5 % of scale), which the mark, riding on edges, does not survive.
  // Each place read (and each pass of the trace) counts as codes tried.
  const places = sameish(start, transform) && !same(start, transform) ? [transform, start] : [transform];
  const reads = places.map((place) => {
    const warped = warpToFrame(levels, place, readWidth, readHeight);
    const tone = toneCurve(original, warped.data);
    const k = readWidth / FRAME_WIDTH;
    return {
      warped,
      tone,
      /** Whether the suspect shows a pixel of the 1,024 px page (where its stamp is predicted). */
      seen: (x: number, y: number) => {
        const v = warped.data[Math.floor(y * k) * readWidth + Math.floor(x * k)];
        return v !== undefined && !Number.isNaN(v);
      },
      softs: keys.map((layout) => readMark(original, warped.data, readWidth, readHeight, layout, tone)),
    };
  });
  const candidates = await candidatesFor(page.bookId);
  // A candidate whose stamp is known is scored twice for each read: by the page's ink alone, and by
  // that joined with its stamp's dots (read against its own stamp). Both count as codes tried. The
  // stamps are drawn only when the ink alone names no one (a candidate's best is then its joined
  // score): leaving scores out never names anyone more.
  const stamped = candidates.some((candidate) => candidate.stamp);
  const tried = candidates.length * reads.length * keys.length * passes * (stamped ? 2 : 1);
  const needed = scoreNeeded(tried);
  const scores = candidates.map((candidate) =>
    Math.max(...reads.flatMap(({ softs }) => softs.map((soft, key) => codeScore(soft, candidate.codes[key] as Uint8Array)))),
  );
  if (stamped && !scores.some((score) => score >= needed)) {
    for (const { warped, tone, seen, softs } of reads) {
      // The page's flat pixels, read once a place for every candidate's stamp.
      const flat = flatInk(original, warped.data, readWidth, readHeight, tone);
      for (const [c, candidate] of candidates.entries()) {
        if (!candidate.stamp) continue;
        const stamp = stampPrediction(luma, FRAME_WIDTH, page.height, candidate.stamp, seen);
        for (const [key, soft] of softs.entries()) {
          const joined = codeScore(joinSoft(soft, readStampMark(flat, stamp, keys[key] as MarkLayout)), candidate.codes[key] as Uint8Array);
          scores[c] = Math.max(scores[c] as number, joined);
        }
      }
    }
  }
  const matches: Found["matches"] = [];
  let best = Number.NEGATIVE_INFINITY;
  for (const [c, candidate] of candidates.entries()) {
    const score = scores[c] as number;
    best = Math.max(best, score);
    if (score >= needed) matches.push({ candidate, score, confidence: confidence(score, tried) });
  }
  matches.sort((a, b) => b.score - a.score);
  return { page, transform, fit, matches, best, needed };
}

function same(a: Transform, b: Transform): boolean {
  return a.s === b.s && a.theta === b.theta && a.tx === b.tx && a.ty === b.ty;
}

function greyOf(luma: Uint8Array, width: number, height: number): Grey {
  return { width, height, data: Float32Array.from(luma) };
}

/**
 * How sure: one minus the bound (scoreNeeded) on the chance that any of `tried` codes the image does
 * not carry scores this high, never shown as certain.
 */
export function confidence(score: number, tried: number): number {
  const falseAlarm = Math.min(1, Math.max(1, tried) * Math.exp((-score * score) / 2));
  return Math.min(0.999999, Math.max(0, 1 - falseAlarm));
}

export { CODE_BITS };
