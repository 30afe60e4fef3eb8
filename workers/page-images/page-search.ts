/**
 * Search inside one book: the pages whose text holds what was typed, with a plain-text snippet
 * and the character ranges of the matches in it (the reader marks them; nothing is HTML). Case,
 * accents and runs of white space are ignored, by the matcher the reader also uses to mark the
 * matches on the page (shared/text-match.ts). The whole book's text is one R2 object,
 * read once per search: a 500-page book is a few hundred kB, cheaper than a query per page.
 */

import { matchRanges, normaliseQuery } from "#shared/text-match.ts";

export const MAX_SEARCH_RESULTS = 50;
const SNIPPET_BEFORE = 60;
const SNIPPET_LENGTH = 180;

export interface SearchResult {
  n: number;
  snippet: string;
  highlights: [number, number][];
}

/** Matches of `query` in the pages' texts (page n = index + 1), first `limit` pages with a snippet each. */
export function searchPages(texts: string[], query: string, limit = MAX_SEARCH_RESULTS): { results: SearchResult[]; total: number } {
  const needle = normaliseQuery(query);
  const results: SearchResult[] = [];
  let total = 0;
  if (!needle) return { results, total };
  texts.forEach((text, index) => {
    const ranges = matchRanges(text, needle);
    if (!ranges.length) return;
    total++;
    if (results.length >= limit) return;
    const from = Math.max(0, ranges[0]![0] - SNIPPET_BEFORE);
    const to = Math.min(text.length, from + SNIPPET_LENGTH);
    const raw = text.slice(from, to);
    // Collapse white space in the snippet while keeping the highlight offsets in step.
    let snippet = "";
    const map: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      const space = /\s/.test(raw[i]!);
      if (space && snippet.endsWith(" ")) {
        map.push(snippet.length - 1);
        continue;
      }
      map.push(snippet.length);
      snippet += space ? " " : raw[i];
    }
    map.push(snippet.length);
    const highlights = ranges
      .filter(([start, end]) => start >= from && end <= to)
      .map(([start, end]) => [map[start - from]!, map[end - from]!] as [number, number]);
    const prefix = from > 0 ? "…" : "";
    const suffix = to < text.length ? "…" : "";
    results.push({
      n: index + 1,
      snippet: `${prefix}${snippet}${suffix}`,
      highlights: highlights.map(([a, b]) => [a + prefix.length, b + prefix.length]),
    });
  });
  return { results, total };
}
