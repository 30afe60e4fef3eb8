// TRACE_MISSES and TRACE_RETRACE of npm run bench:trace (bench/trace.ts): each missed sample kept to
// look at, and the kept images traced again with the current code.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Found } from "../../workers/leaks/trace-core.ts";
import { geometry } from "./trace-attacks.ts";

let missCount = 0;
/** Keeps a missed sample in `dir`: its image, and a line of misses.jsonl saying what it was, where the page was in it and what was found. */
export function keepMiss(
  dir: string,
  attack: string,
  image: Buffer,
  s: { pageIndex: number; teacher: number; day: string },
  found: Found | null,
) {
  mkdirSync(dir, { recursive: true });
  const name = `miss-${process.pid}-${missCount++}.png`;
  writeFileSync(join(dir, name), image);
  const seen = found && {
    bookId: found.page.bookId,
    page: found.page.page,
    fit: found.fit,
    best: found.best,
    needed: found.needed,
    transform: found.transform,
  };
  const line = {
    name,
    combo: attack,
    pageIndex: s.pageIndex,
    teacher: s.teacher,
    day: s.day,
    geometry: { ...geometry },
    found: seen,
  };
  appendFileSync(join(dir, "misses.jsonl"), `${JSON.stringify(line)}\n`);
}

/** The images kept by keepMiss in `dir`, traced again with the current code: what each names now. */
export async function retraceMisses(
  dir: string,
  pages: Array<{ bookId: number; page: number }>,
  trace: (image: Buffer) => Promise<Found | null>,
) {
  const kept = readFileSync(join(dir, "misses.jsonl"), "utf8").split("\n").filter(Boolean);
  let named = 0;
  for (const text of kept) {
    const miss = JSON.parse(text) as { name: string; combo: string; pageIndex: number; teacher: number; day: string };
    const page = pages[miss.pageIndex] as (typeof pages)[number];
    const found = await trace(readFileSync(join(dir, miss.name)));
    const top = found?.matches[0];
    const right = top?.candidate.teacherId === miss.teacher && top.candidate.day === miss.day;
    if (right) named++;
    const where = found
      ? `page ${found.page.bookId}/${found.page.page} fit ${found.fit.toFixed(2)}, best ${found.best.toFixed(2)} of ${found.needed.toFixed(2)}`
      : "no page";
    console.log(`${right ? "named " : "missed"} ${miss.name} ${miss.combo}: page ${page.bookId}/${page.page}; ${where}`);
  }
  console.log(`${named} of ${kept.length} named now`);
}
