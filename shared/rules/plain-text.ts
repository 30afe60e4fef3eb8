/**
 * A page's plain text in reading order, from its text runs: what search inside the book reads
 * (stored with the page set by the renderer, workers/renderer/jobs.ts) and what the reader's
 * matches are found in (app/lib/reader/page-matches.ts): a line break between runs on different
 * lines, else a space.
 */
import { TEXT_LIMITS } from "./extracted-text.ts";

interface Runs {
  width?: number;
  height?: number;
  runs: readonly { str: string; x?: number; y: number; w?: number; h: number }[];
}

export function plainText(text: Runs): string {
  let out = "";
  let lastY: number | null = null;
  for (const run of text.runs) {
    if (lastY !== null) out += Math.abs(run.y - lastY) > run.h / 2 ? "\n" : " ";
    out += run.str;
    lastY = run.y;
  }
  return out
    .replace(/[ \t]+/g, " ")
    .trim()
    .slice(0, TEXT_LIMITS.plainTextPerPage);
}
