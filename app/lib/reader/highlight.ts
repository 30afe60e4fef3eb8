export type SnippetPart = { text: string; match: boolean };

/**
 * A search snippet cut into plain and matching parts, from the server's [start, end) character
 * ranges. Ranges out of order, overlapping or past the end are tolerated; the text is never HTML.
 */
export function splitHighlights(snippet: string, ranges: readonly (readonly [number, number])[]): SnippetPart[] {
  const clean = ranges
    .map(([start, end]) => [Math.max(0, Math.min(start, snippet.length)), Math.max(0, Math.min(end, snippet.length))] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [start, end] of clean) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    const last = parts[parts.length - 1];
    if (from > at) parts.push({ text: snippet.slice(at, from), match: false });
    else if (last?.match) {
      last.text += snippet.slice(from, end);
      at = end;
      continue;
    }
    parts.push({ text: snippet.slice(from, end), match: true });
    at = end;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), match: false });
  return parts;
}
