// npm test: typecheck, lint, build, then every vitest project (worker, component, e2e).
// Ends with the line CI reads: "N passed, N failed".
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureDevVars, ROOT, run } from "./lib/env.ts";

const started = Date.now();
ensureDevVars();

const checks: [string, string, string[]][] = [
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["lint", "biome", ["check", "."]],
  ["build", "react-router", ["build"]],
];
const failedChecks: string[] = [];
for (const [name, command, args] of checks) {
  console.log(`\n▶ ${name}`);
  if ((await run(command, args)) !== 0) failedChecks.push(name);
}

const report = join(ROOT, "test-results/vitest.json");
mkdirSync(join(ROOT, "test-results"), { recursive: true });
rmSync(report, { force: true });
console.log("\n▶ vitest (worker, component, e2e)");
const extra = process.argv.slice(2);
const vitestCode = failedChecks.includes("build")
  ? 1
  : await run("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra]);

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
