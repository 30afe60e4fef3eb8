/**
 * What a renderer sends with each page and at the end of a page set, checked with zod on arrival.
 * The browser renderer and `npm run pages` build these shapes; the reader reads them back.
 */
import { z } from "zod";

/** A page's size in PDF points (pdf.js viewport at scale 1): a poster is big, nothing is 20 m wide. */
const PagePoints = z.number().positive().max(20_000);
const Coordinate = z.number().min(-100_000).max(100_000);

/** One run of text as pdf.js places it: top-left origin, `y` is the top of the run, `h` its font height. */
export const TextRunSchema = z.object({
  str: z.string().max(10_000),
  x: Coordinate,
  y: Coordinate,
  w: z.number().min(0).max(100_000),
  h: z.number().min(0).max(100_000),
});
export type TextRun = z.infer<typeof TextRunSchema>;

export const PageTextSchema = z.object({
  width: PagePoints,
  height: PagePoints,
  runs: z.array(TextRunSchema).max(50_000, "A page may hold at most 50,000 text runs"),
});
export type PageText = z.infer<typeof PageTextSchema>;

export const PageFailureSchema = z.object({
  width: PagePoints.default(612),
  height: PagePoints.default(792),
  error: z.string().trim().min(1).max(500),
});

export interface OutlineItem {
  title: string;
  page: number | null;
  items: OutlineItem[];
}

const MAX_OUTLINE_DEPTH = 6;

function outlineSchema(depth: number): z.ZodType<OutlineItem> {
  return z.object({
    title: z.string().max(500),
    page: z.number().int().min(1).max(100_000).nullable(),
    items: depth >= MAX_OUTLINE_DEPTH ? z.array(z.never()).max(0) : z.array(z.lazy(() => outlineSchema(depth + 1))).max(2_000),
  }) as z.ZodType<OutlineItem>;
}

export const OutlineSchema = z.array(outlineSchema(1)).max(2_000);

export const CompletePageSetSchema = z.object({
  outline: OutlineSchema.default([]),
  // Every page's plain text, in page order: what search inside the book reads.
  text: z.array(z.string().max(200_000)).max(100_000),
});
export type CompletePageSet = z.infer<typeof CompletePageSetSchema>;

/** Counts the items of an outline at every level. */
export function countOutline(items: OutlineItem[]): number {
  return items.reduce((n, item) => n + 1 + countOutline(item.items), 0);
}
