// What `wrangler deploy` would upload: the built Worker's size, raw and gzipped (issue 25: under 1 MB gzipped).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, toolEnv } from "../../scripts/lib/env.ts";
import type { Row } from "./report.ts";

/** The deployed Worker's budget, gzipped, in KiB as wrangler prints them (1 MB = 1,000 KiB, the stricter reading). */
export const WORKER_GZIP_BUDGET_KIB = 1000;

export interface WorkerSize {
  rawKiB: number;
  gzipKiB: number;
}

/** `wrangler deploy --dry-run` on the build in build/ (nothing is sent anywhere): its "Total Upload" line. */
export function measureWorkerSize(): WorkerSize | string {
  const outdir = mkdtempSync(join(tmpdir(), "lectern-dry-run-"));
  try {
    const result = spawnSync("wrangler", ["deploy", "--dry-run", "--outdir", outdir], { cwd: ROOT, env: toolEnv(), encoding: "utf8" });
    const output = `${result.stdout}\n${result.stderr}`;
    const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    if (!match) return `no "Total Upload" line from wrangler (exit ${result.status})`;
    return { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

export function workerSizeRows(size: WorkerSize | string): Row[] {
  const section = "worker size (wrangler deploy --dry-run)";
  if (typeof size === "string") return [{ section, item: "the built Worker", result: size, target: "a result", status: "MISSED" }];
  const ok = size.gzipKiB < WORKER_GZIP_BUDGET_KIB;
  return [
    {
      section,
      item: "the built Worker, gzipped (raw in brackets)",
      result: `${size.gzipKiB.toFixed(2)} KiB (${size.rawKiB.toFixed(2)} KiB)`,
      target: `< ${WORKER_GZIP_BUDGET_KIB} KiB gzipped`,
      status: ok ? "ok" : "MISSED",
    },
  ];
}
