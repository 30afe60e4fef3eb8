import { CODE_BITS, type MarkLayout } from "../stamp/mark.ts";
import { FRAME_WIDTH, sameish, type Transform } from "./frame.ts";
import { type Grey, greyOf, pyramid, validRows } from "./grey.ts";
import { boxHypotheses, hypotheses, pageSlides } from "./locate.ts";
import { readFound } from "./mark-reading.ts";
import { leaveOutSurround, type PageBox, pageBox } from "./page-box.ts";
import { type PageLevels, pageLevels, refine, seenEdges } from "./refine.ts";
import { slideHypotheses } from "./slide-hypotheses.ts";
import { MIN_SHARE, suspectThumbnail } from "./thumbnails.ts";
import { toneFit } from "./tone-fit.ts";
import type { Candidate, Found, StoredPage } from "./trace-types.ts";

// The trace's callers (trace.ts, the bench, the tests) name what it takes and answers from here.
export type { Candidate, Found, StoredPage };

/**
 * The trace without the platform (docs/decisions/0025-leak-trace.md): which stored page a suspect
 * image shows, where, and which (teacher, day) codes its hidden mark carries. Used by
 * POST /api/leaks/trace (trace.ts) and by `npm run bench:trace` in Node. The search for the page is
 * here (locate.ts says its steps); a page sliding along a screenshot's side edge is searched in
 * slide-hypotheses.ts, and the mark is read, and its codes named, in mark-reading.ts.
 */

/** Page hypotheses refined after the thumbnail round, for a suspect showing a whole page; up to MAX_REFINED for a quarter of one. */
const REFINED = 12;
const MAX_REFINED = 48;
/** Of those, refined to 512 px (and read when the best carries no mark). */
const FINE = 6;
/** Hypotheses of one page registered at most (its top or its bottom in a screenshot, scales of a cut page). */
const PER_PAGE = 3;

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

export { CODE_BITS };
