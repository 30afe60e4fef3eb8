import { readdirSync, readFileSync } from "node:fs";

/** Linux's clock ticks a second (`getconf CLK_TCK`; 100 on every kernel we run on). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) used so far by every process of a process group, read from
 * /proc/<pid>/stat: `wrangler dev` and the workerd it runs, which executes the Worker and local
 * D1 alike. Unlike req/s on a machine shared with other work, CPU per request does not change with
 * what else runs, so it is what a change is judged by here (Linux only; 10 ms resolution).
 */
export function groupCpuMs(group: number): { workerd: number; other: number } {
  const used = { workerd: 0, other: 0 };
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // ended since the listing
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces, so fields are counted after its ")".
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    if (Number(fields[2]) !== group) continue;
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    if (comm.startsWith("workerd")) used.workerd += ms;
    else used.other += ms;
  }
  return used;
}

/** `runs` requests to `url`, `parallel` at a time, and the process group's CPU ms per request. */
export async function cpuPerRequest(
  group: number,
  url: string,
  headers: Record<string, string>,
  { runs = 200, parallel = 4 } = {},
): Promise<{ workerdMs: number; otherMs: number }> {
  const get = async () => {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  };
  for (let i = 0; i < 10; i++) await get();
  const before = groupCpuMs(group);
  let left = runs;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (left-- > 0) await get();
    }),
  );
  const after = groupCpuMs(group);
  return { workerdMs: +((after.workerd - before.workerd) / runs).toFixed(2), otherMs: +((after.other - before.other) / runs).toFixed(2) };
}
