/** Reading the hidden mark where the search found the page, and naming the codes it carries within the one-in-a-million bound (docs/decisions/0025-leak-trace.md). */
import type { MarkLayout } from "../stamp/mark.ts";
import { codeScore, flatInk, joinSoft, readMark, readStampMark, toneCurve } from "../stamp/read-mark.ts";
import { stampPrediction } from "../stamp/watermark.ts";
import { FRAME_WIDTH, same, sameish, type Transform, warpToFrame } from "./frame.ts";
import { type Grey, greyOf, resizeTo } from "./grey.ts";
import type { Candidate, Found, StoredPage } from "./trace-types.ts";

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

export async function readFound(
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

/**
 * How sure: one minus the bound (scoreNeeded) on the chance that any of `tried` codes the image does
 * not carry scores this high, never shown as certain.
 */
export function confidence(score: number, tried: number): number {
  const falseAlarm = Math.min(1, Math.max(1, tried) * Math.exp((-score * score) / 2));
  return Math.min(0.999999, Math.max(0, 1 - falseAlarm));
}
