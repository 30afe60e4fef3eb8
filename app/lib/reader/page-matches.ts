import { matchRanges, normaliseQuery } from "#shared/text-match.ts";
import type { TextRun } from "../../../workers/page-images/page-content.ts";

/** Where (part of) one match is on the page, in PDF points from the top-left corner; `match` numbers the matches. */
export interface MatchBox {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
  match: number;
}

/**
 * Where the book's search finds `query` on a page: a box per run, or part of a run, that a match
 * covers. The runs are joined as the search's text of the page was (`plainText` in
 * shared/rules/plain-text.ts: a line break between runs on different lines, else a space), so
 * a page the search lists has its matches here too, also those spanning runs. Within a run the
 * part is measured in proportion to its characters: the run's width is all we know of its glyphs.
 */
export function findMatchBoxes(runs: readonly TextRun[], query: string): MatchBox[] {
  const needle = normaliseQuery(query);
  if (!needle) return [];
  let text = "";
  const starts: number[] = [];
  for (const [i, run] of runs.entries()) {
    const previous = runs[i - 1];
    if (previous) text += Math.abs(run.y - previous.y) > run.h / 2 ? "\n" : " ";
    starts.push(text.length);
    text += run.str;
  }
  const boxes: MatchBox[] = [];
  let first = 0; // matches come in order: runs that end before one cannot hold the next
  for (const [match, [start, end]] of matchRanges(text, needle).entries()) {
    while (first < runs.length && starts[first]! + runs[first]!.str.length <= start) first++;
    for (let i = first; i < runs.length && starts[i]! < end; i++) {
      const run = runs[i]!;
      const from = Math.max(start - starts[i]!, 0);
      const to = Math.min(end - starts[i]!, run.str.length);
      if (to <= from) continue;
      const perChar = run.w / run.str.length;
      boxes.push({ x: run.x + from * perChar, y: run.y, w: (to - from) * perChar, h: run.h, text: run.str.slice(from, to), match });
    }
  }
  return boxes;
}
