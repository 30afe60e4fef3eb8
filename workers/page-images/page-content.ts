/**
 * What a renderer sends with each page and at the end of a page set, checked with zod on arrival.
 * The browser renderer and `npm run pages` build these shapes; the reader reads them back. Their
 * text came out of a PDF: control characters in it are cleaned out here, not refused (`extracted`;
 * callers of parseInput clean the raw body first, as its generic check runs before the schema).
 */
import { z } from "zod";
import { cleanExtractedText, MAX_TEXT_COORDINATE, TEXT_LIMITS } from "#shared/rules/extracted-text.ts";

/** A page's size in PDF points (pdf.js viewport at scale 1): a poster is big, nothing is 20 m wide. */
const PagePoints = z.number().positive().max(20_000);
const Coordinate = z.number().min(-MAX_TEXT_COORDINATE).max(MAX_TEXT_COORDINATE);

/** Text out of a PDF, at most `max` long, with its control characters dropped (shared/rules/extracted-text.ts). */
const extracted = (max: number) => z.string().max(max).transform(cleanExtractedText);

/** One run of text as pdf.js places it: top-left origin, `y` is the top of the run, `h` its font height. */
export const TextRunSchema = z.object({
  str: extracted(TEXT_LIMITS.runLength),
  x: Coordinate,
  y: Coordinate,
  w: z.number().min(0).max(MAX_TEXT_COORDINATE),
  h: z.number().min(0).max(MAX_TEXT_COORDINATE),
});
export type TextRun = z.infer<typeof TextRunSchema>;

export const PageTextSchema = z.object({
  width: PagePoints,
  height: PagePoints,
  runs: z.array(TextRunSchema).max(TEXT_LIMITS.runsPerPage, "A page may hold at most 50,000 text runs"),
});
export type PageText = z.infer<typeof PageTextSchema>;

export const PageFailureSchema = z.object({
  width: PagePoints.default(612),
  height: PagePoints.default(792),
  // The renderer's own words about a page it could not draw (pdf.js's, quoting the PDF at times).
  error: z.string().transform(cleanExtractedText).pipe(z.string().trim().min(1).max(500)),
});

export interface OutlineItem {
  title: string;
  page: number | null;
  items: OutlineItem[];
}

const MAX_OUTLINE_DEPTH = 6;

function outlineSchema(depth: number): z.ZodType<OutlineItem> {
  return z.object({
    title: extracted(500),
    page: z.number().int().min(1).max(100_000).nullable(),
    items: depth >= MAX_OUTLINE_DEPTH ? z.array(z.never()).max(0) : z.array(z.lazy(() => outlineSchema(depth + 1))).max(2_000),
  }) as z.ZodType<OutlineItem>;
}

export const OutlineSchema = z.array(outlineSchema(1)).max(2_000);

export const CompletePageSetSchema = z.object({
  outline: OutlineSchema.default([]),
  // Every page's plain text, in page order: what search inside the book reads.
  text: z.array(extracted(TEXT_LIMITS.plainTextPerPage)).max(100_000),
});
export type CompletePageSet = z.infer<typeof CompletePageSetSchema>;

/** Counts the items of an outline at every level. */
export function countOutline(items: OutlineItem[]): number {
  return items.reduce((n, item) => n + 1 + countOutline(item.items), 0);
}
