/**
 * Text taken out of a PDF (its text layer's runs, the plain text search reads, outline titles, a
 * renderer's error) is not what a person typed: a damaged or fuzzed PDF maps glyphs to NUL, ESC and
 * other control characters (pdf.js passes them on). Such text is cleaned, never refused, so no book
 * stays unreadable for its text layer (docs/decisions/0036). Control characters go (C0 but tab and
 * line feed, DEL, C1); every other character, of any script, stays.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function cleanExtractedText(text: string): string {
  return text.replace(CONTROL, "");
}

/**
 * What the page-set API takes of a page's text (workers/page-images/page-content.ts): the
 * preparation keeps a PDF's text within these rather than have a page refused for holding more.
 */
export const TEXT_LIMITS = { runLength: 10_000, runsPerPage: 50_000, plainTextPerPage: 200_000 } as const;

/** How far from the page's corner a run of text may sit, in PDF points (a damaged PDF's matrix can put text light-years away, or at NaN). */
export const MAX_TEXT_COORDINATE = 100_000;

/** Deeper than any renderer's body (an outline is 6 levels): left as it is, for the input's own depth check to refuse. */
const MAX_DEPTH = 32;

/** Every string in a JSON value (a page's text, a page set's text and outline as a renderer sent them) cleaned. */
export function cleanExtractedStrings(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return cleanExtractedText(value);
  if (!value || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => cleanExtractedStrings(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cleanExtractedStrings(item, depth + 1)]));
}
