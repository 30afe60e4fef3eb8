import type { TextRun } from "../../../workers/page-images/page-content.ts";

export type TextLine = { text: string; y: number; h: number; x: number };
export type TextParagraph = { text: string; heading: boolean };

/** Runs whose vertical extents overlap by at least half the smaller height sit on one line. */
function sameLine(line: { y: number; h: number }, run: TextRun): boolean {
  const overlap = Math.min(line.y + line.h, run.y + run.h) - Math.max(line.y, run.y);
  return overlap >= Math.min(line.h, run.h) / 2;
}

/** Joins a line's runs left to right, with a space where the gap between them is word-sized. */
function joinRuns(runs: TextRun[]): string {
  let text = "";
  let end = Number.NEGATIVE_INFINITY;
  for (const run of runs.sort((a, b) => a.x - b.x)) {
    const gap = run.x - end;
    if (text && gap > run.h * 0.15 && !/\s$/.test(text) && !/^\s/.test(run.str)) text += " ";
    text += run.str;
    end = Math.max(end, run.x + run.w);
  }
  return text.replace(/\s+/g, " ").trim();
}

/** The page's runs as lines, top to bottom. */
export function groupRunsIntoLines(runs: readonly TextRun[]): TextLine[] {
  const groups: { y: number; h: number; runs: TextRun[] }[] = [];
  const sorted = runs.filter((run) => run.str.trim() !== "").sort((a, b) => a.y - b.y || a.x - b.x);
  for (const run of sorted) {
    const line = groups.find((group) => sameLine(group, run));
    if (line) {
      const bottom = Math.max(line.y + line.h, run.y + run.h);
      line.y = Math.min(line.y, run.y);
      line.h = bottom - line.y;
      line.runs.push(run);
    } else groups.push({ y: run.y, h: run.h, runs: [run] });
  }
  return groups
    .sort((a, b) => a.y - b.y)
    .map((group) => ({
      text: joinRuns(group.runs),
      y: group.y,
      h: Math.max(...group.runs.map((run) => run.h)),
      x: Math.min(...group.runs.map((run) => run.x)),
    }))
    .filter((line) => line.text !== "");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Lines gathered into paragraphs: a new one starts after a vertical gap larger than most of the
 * page's line spacing, or where the font size changes (a heading). A word hyphenated across two
 * lines is joined again, so read-aloud says the word.
 */
export function groupLinesIntoParagraphs(lines: readonly TextLine[]): TextParagraph[] {
  if (!lines.length) return [];
  const body = median(lines.map((line) => line.h));
  const gaps = lines.slice(1).map((line, i) => line.y - (lines[i]!.y + lines[i]!.h));
  const usualGap = gaps.length ? median(gaps) : 0;
  const paragraphs: { lines: TextLine[] }[] = [];
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    const current = paragraphs[paragraphs.length - 1];
    const gap = previous ? line.y - (previous.y + previous.h) : 0;
    const sizeChanged = previous ? Math.abs(line.h - previous.h) > Math.min(line.h, previous.h) * 0.2 : false;
    const breaks = !previous || !current || sizeChanged || gap > Math.max(usualGap * 1.8, usualGap + body * 0.5);
    if (breaks) paragraphs.push({ lines: [line] });
    else current.lines.push(line);
  });
  return paragraphs.map(({ lines: group }) => ({
    text: group.reduce((text, line) => {
      if (!text) return line.text;
      if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line.text)) return text.slice(0, -1) + line.text;
      return `${text} ${line.text}`;
    }, ""),
    heading: group.length <= 2 && (group[0]?.h ?? 0) > body * 1.25,
  }));
}

/** A page's text as paragraphs, for the Text view. */
export function reflowPageText(runs: readonly TextRun[]): TextParagraph[] {
  return groupLinesIntoParagraphs(groupRunsIntoLines(runs));
}
