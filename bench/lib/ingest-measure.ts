/**
 * What `npm run bench:ingest` reads while a book is prepared: workerd's CPU time and resident memory
 * from /proc (Linux; the app, the renderer and local D1/R2 run in that one process, so both are upper
 * bounds of the renderer's own), and the renderer's PDFium wasm heap from the `[ingest-heap]` lines
 * its staged entry logs after each job (bench/lib/ingest-stage.ts).
 */
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** User + system CPU ms of these processes so far, or null when none is there. */
export function processesCpuMs(pids: number[]): number | null {
  const each = pids.map(processCpuMs).filter((ms): ms is number => ms !== null);
  return each.length ? each.reduce((sum, ms) => sum + ms, 0) : null;
}

/** Resident memory of these processes together now, in bytes, or null. */
export function processesRssBytes(pids: number[]): number | null {
  const each = pids.map(processRssBytes).filter((bytes): bytes is number => bytes !== null);
  return each.length ? each.reduce((sum, bytes) => sum + bytes, 0) : null;
}

/** User + system CPU ms of a process so far, or null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Resident memory of a process now (VmRSS), in bytes, or null. */
export function processRssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples the processes' RSS together every `everyMs` until stopped; answers the first sample and the peak. */
export function sampleRss(pids: number[], everyMs = 200) {
  const first = processesRssBytes(pids);
  let peak = first ?? 0;
  const timer = setInterval(() => {
    const now = processesRssBytes(pids);
    if (now && now > peak) peak = now;
  }, everyMs);
  return {
    stop(): { baseline: number | null; peak: number | null } {
      clearInterval(timer);
      return { baseline: first, peak: first === null ? null : peak };
    },
  };
}

/** The largest wasm heap the renderer logged in `output` (its log since the book began), in bytes. */
export function peakWasmHeap(output: string): number | null {
  let peak: number | null = null;
  for (const match of output.matchAll(/\[ingest-heap\] (\{.*\})/g)) {
    try {
      const { heap } = JSON.parse(match[1]!) as { heap: number };
      if (heap > 0 && (peak === null || heap > peak)) peak = heap;
    } catch {}
  }
  return peak;
}
