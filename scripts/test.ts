// npm test: typecheck, lint, build, then every vitest project (worker, component, e2e).
// Ends with the line CI reads: "N passed, N failed".
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SEEDED } from "../tests/e2e/state.ts";
import { ensureDevVars, ROOT, run, toolEnv } from "./lib/env.ts";

const started = Date.now();
ensureDevVars();

// The e2e world is seeded from the start, alongside the checks and the other test projects (on a
// fresh clone rendering the demo books' pages takes minutes); the e2e setup waits for it.
rmSync(SEEDED, { force: true });
const seeding = spawn(process.execPath, [join(ROOT, "tests/e2e/seed.ts")], { cwd: ROOT, env: toolEnv(), stdio: "inherit" });
seeding.on("exit", (code, signal) => {
  if (!existsSync(SEEDED)) writeFileSync(SEEDED, `The e2e seed exited with ${code ?? signal} before it finished`);
});

const checks: [string, string, string[]][] = [
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["lint", "biome", ["check", "."]],
  ["build", "react-router", ["build"]],
];
const failedChecks: string[] = [];
// Side by side (each is mostly one core); their output may interleave.
console.log(`\n▶ ${checks.map(([name]) => name).join(", ")}`);
await Promise.all(
  checks.map(async ([name, command, args]) => {
    if ((await run(command, args)) !== 0) failedChecks.push(name);
  }),
);

const report = join(ROOT, "test-results/vitest.json");
mkdirSync(join(ROOT, "test-results"), { recursive: true });
rmSync(report, { force: true });
console.log("\n▶ vitest (worker, component, e2e)");
const extra = process.argv.slice(2);
const vitestCode = failedChecks.includes("build")
  ? 1
  : await run("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra], {
      env: { LECTERN_E2E_SEEDING: "1" },
    });
if (seeding.exitCode === null) seeding.kill();

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number };
  passed = results.numPassedTests;
  failed = results.numFailedTests;
}
// A failed typecheck, lint or build counts as a failed test, and so does a crash of vitest itself.
failed += failedChecks.length;
if (vitestCode !== 0 && failed === 0) failed = 1;
passed += checks.length - failedChecks.length;

const seconds = Math.round((Date.now() - started) / 1000);
if (failedChecks.length) console.log(`\nFailed checks: ${failedChecks.join(", ")}`);
console.log(`\nnpm test took ${seconds}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
