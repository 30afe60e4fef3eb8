/**
 * How search inside the book matches text: case, accents and runs of white space are ignored.
 * One module for both ends, so the Worker's search (workers/page-images/page-search.ts) and the
 * reader, which marks the same matches on the page, never disagree on what matched.
 */

/**
 * Folds a string for matching and keeps, for each folded character, the index of the original
 * character it came from, so matches map back onto the original text.
 */
export function foldText(text: string): { folded: string; origin: number[] } {
  let folded = "";
  const origin: number[] = [];
  let lastSpace = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      if (!lastSpace) {
        folded += " ";
        origin.push(i);
      }
      lastSpace = true;
      continue;
    }
    lastSpace = false;
    const base = char.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
    for (const piece of base) {
      folded += piece;
      origin.push(i);
    }
  }
  return { folded, origin };
}

/** What a query is looked for as: folded, without white space at either end ("" finds nothing). */
export function normaliseQuery(query: string): string {
  return foldText(query.trim()).folded.trim();
}

/** The [start, end) ranges of `text`'s characters where `needle` (a normalised query) matches, in order, not overlapping. */
export function matchRanges(text: string, needle: string): [number, number][] {
  if (!needle) return [];
  const { folded, origin } = foldText(text);
  const ranges: [number, number][] = [];
  for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + needle.length)) {
    ranges.push([origin[at]!, origin[at + needle.length - 1]! + 1]);
  }
  return ranges;
}
