// The benches npm run bench runs as child processes (bench/index.ts): the reader's, and the leak
// trace's with fewer samples; each answers its exit code.
import { spawn } from "node:child_process";
import { ROOT, toolEnv } from "../../scripts/lib/env.ts";

export function runReaderBench(): Promise<number> {
  return runChild("bench/reader.ts", {});
}

/** npm run bench:trace with fewer samples (its own run prints the full table): the leak-trace rows. */
export function runTraceBench(): Promise<number> {
  return runChild("bench/trace.ts", {
    TRACE_SAMPLES: "30",
    TRACE_PAIR_SAMPLES: "4",
    TRACE_FALSE: "100",
    TRACE_PARTS: "singles,pairs,false",
  });
}

function runChild(script: string, extra: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("node", [script], { cwd: ROOT, env: { ...toolEnv(), ...extra }, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}
