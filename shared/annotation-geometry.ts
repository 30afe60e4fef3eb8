/**
 * A highlight's place in a page's text (docs/decisions/0032): from one point in the page's text
 * runs to another (run index and character offset, the end exclusive), as a selection over the
 * reader's text layer gives it. The same functions give the server the highlighted text (from the
 * page's stored runs, never the client's word) and the reader the rectangles it draws over the
 * page image, in PDF points like the runs.
 */
import type { TextRun } from "../workers/page-images/page-content.ts";

export interface TextPoint {
  run: number;
  offset: number;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const before = (a: TextPoint, b: TextPoint) => a.run < b.run || (a.run === b.run && a.offset < b.offset);

/** Whether the two points name a non-empty stretch of these runs, start first. */
export function validRange(runs: readonly TextRun[], start: TextPoint, end: TextPoint): boolean {
  const inRun = (p: TextPoint) => p.run >= 0 && p.run < runs.length && p.offset >= 0 && p.offset <= (runs[p.run]?.str.length ?? 0);
  return inRun(start) && inRun(end) && before(start, end);
}

/** Each run the range touches, with the characters of it that are inside. */
function pieces(runs: readonly TextRun[], start: TextPoint, end: TextPoint) {
  const out: { run: TextRun; from: number; to: number }[] = [];
  for (let i = start.run; i <= end.run; i++) {
    const run = runs[i];
    if (!run) continue;
    const from = i === start.run ? start.offset : 0;
    const to = i === end.run ? end.offset : run.str.length;
    if (to > from) out.push({ run, from, to });
  }
  return out;
}

/** Two runs on one line: their vertical extents overlap by at least half the smaller height. */
const sameLine = (a: TextRun, b: TextRun) => Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) >= Math.min(a.h, b.h) / 2;

/** The highlighted text: the runs' characters in reading order, a space where a word or line breaks between them. */
export function rangeText(runs: readonly TextRun[], start: TextPoint, end: TextPoint): string {
  let text = "";
  let previous: TextRun | null = null;
  for (const { run, from, to } of pieces(runs, start, end)) {
    const part = run.str.slice(from, to);
    if (previous && text && !/\s$/.test(text) && !/^\s/.test(part)) {
      const gap = run.x - (previous.x + previous.w);
      if (!sameLine(previous, run) || gap > run.h * 0.15) text += " ";
    }
    text += part;
    previous = run;
  }
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The rectangles to draw: one per run touched, its share of the run's width taken by character
 * count (a run's glyphs are near enough even for a highlight; the text layer stretches runs alike),
 * with adjacent rectangles of one line joined.
 */
export function rangeRects(runs: readonly TextRun[], start: TextPoint, end: TextPoint): Rect[] {
  const rects: Rect[] = [];
  for (const { run, from, to } of pieces(runs, start, end)) {
    const length = run.str.length || 1;
    const x = run.x + (run.w * from) / length;
    const w = (run.w * (to - from)) / length;
    const last = rects.at(-1);
    if (last && Math.abs(last.y - run.y) < run.h / 2 && Math.abs(last.h - run.h) < run.h / 2 && x - (last.x + last.w) < run.h) {
      const right = Math.max(last.x + last.w, x + w);
      last.x = Math.min(last.x, x);
      last.w = right - last.x;
    } else rects.push({ x, y: run.y, w, h: run.h });
  }
  return rects;
}
