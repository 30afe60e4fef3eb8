/**
 * A page's sentences with their place in its text runs (docs/decisions/0032): what a keyboard or
 * screen-reader user highlights, from a list, instead of selecting words with a pointer. The runs
 * are joined in the page's reading order (a space between two runs that do not already have one),
 * cut into sentences as read-aloud cuts them, and each sentence's first and last character is mapped
 * back to its run and offset, the same range a selection over the text layer would give.
 */

import type { TextPoint } from "#shared/annotation-geometry.ts";
import type { TextRun } from "../../../workers/page-images/page-content.ts";
import { splitSentences } from "./sentences.ts";

export interface PageSentence {
  text: string;
  start: TextPoint;
  end: TextPoint;
}

/** The most characters one highlight covers (the server's MAX_HIGHLIGHT_CHARS): a longer sentence is cut there. */
const MAX_CHARS = 1_000;

export function pageSentences(runs: readonly TextRun[], locale?: string): PageSentence[] {
  const spans: { run: number; from: number; to: number }[] = [];
  let flat = "";
  runs.forEach((run, i) => {
    if (!run.str) return;
    if (flat && !/\s$/.test(flat) && !/^\s/.test(run.str)) flat += " ";
    spans.push({ run: i, from: flat.length, to: flat.length + run.str.length });
    flat += run.str;
  });
  // The first character at or after `at` that belongs to a run, and the end of the last one before `at`.
  const startAt = (at: number): TextPoint | null => {
    const span = spans.find((s) => at < s.to);
    return span ? { run: span.run, offset: Math.max(0, at - span.from) } : null;
  };
  const endAt = (at: number): TextPoint | null => {
    const span = spans.findLast((s) => at > s.from);
    return span ? { run: span.run, offset: Math.min(span.to, at) - span.from } : null;
  };
  const sentences: PageSentence[] = [];
  let cursor = 0;
  for (const piece of splitSentences(flat, locale)) {
    const lead = piece.length - piece.trimStart().length;
    const body = piece.trim();
    const from = cursor + lead;
    cursor += piece.length;
    if (!/[\p{L}\p{N}]/u.test(body)) continue;
    const to = from + Math.min(body.length, MAX_CHARS);
    const start = startAt(from);
    const end = endAt(to);
    if (start && end && (start.run < end.run || (start.run === end.run && start.offset < end.offset)))
      sentences.push({ text: flat.slice(from, to), start, end });
  }
  return sentences;
}
