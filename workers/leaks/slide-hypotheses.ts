import { FRAME_WIDTH, slid, type Transform, warpToFrame } from "./frame.ts";
import { blurValid, type Grey, halveValid } from "./grey.ts";
import { MIN_SHARE, THUMB_WIDTH } from "./thumbnails.ts";
import { toneFit } from "./tone-fit.ts";
import type { StoredPage } from "./trace-types.ts";

/** Places along a slide a page keeps from the 32 px scan. */
const SLIDE_KEPT = 6;
/**
 * Peaks along a slide's strip at 32 px placed again at 64 px, for each scale. At 32 px a few half
 * lines of text fit other places of their page about as well as their own: the best one alone lost
 * the right place of 5 in 8 screenshot quarters kept from the bench.
 */
const SLIDE_PEAKS = 6;

/**
 * A page along a slide (locate.ts, pageSlides): a screenshot shows neither the page's top nor its
 * bottom, so where the page is along its visible side edge is searched, for each page and scale:
 * the suspect is warped once per scale into a strip of the page's width in the page's frame, and
 * each page's 32 px thumbnail is slid along it a row at a time, then placed to the half row at 64 px.
 * A page keeps its SLIDE_KEPT best places, scored at 64 px as the other hypotheses are.
 */
export function slideHypotheses(levels: Grey[], starts: Transform[], pages: StoredPage[]) {
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
