// npm run bench:capacity (issue 24, item 6): what one page view costs D1 and the school objects, and
// the page turns a second that projects to, for the design before the school object (BEFORE, a git
// worktree built once) and the working tree, served side by side from copies of one database and
// driven in the same run by 100 teachers of 20 schools. A probe wrapped around each build counts
// every D1 statement and object call (bench/lib/capacity-probe.ts). Prints the table, writes
// bench/results/capacity.json. Options: --after <commit> measures a commit instead of the working
// tree; --no-build serves the working tree's build/ as it is.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { argValue, ROOT } from "../scripts/lib/env.ts";
import {
  drivePairs,
  everySchoolAndBook,
  flushSchools,
  pageViews,
  resetProbe,
  type Side,
  settledProbe,
  signInAdmin,
  signInTeachers,
} from "./lib/capacity-drive.ts";
import { CAPACITY_TARGETS, checkTargets, comparisonRows, detailLines, type SideMeasure, sideFigures } from "./lib/capacity-report.ts";
import { copyBase, ensureCapacityBase } from "./lib/capacity-seed.ts";
import { buildWorkingTree, CAPACITY_DIR, commitHash, commitSource, type Server, serveStaged, stageSide } from "./lib/capacity-stage.ts";

/** The last commit before the school object (docs/decisions/0024). */
const BEFORE = "eb38fd7";
const PORTS = { before: 8891, after: 8892 } as const;
/**
 * Page views per side. Each one costs ~45 ms of watermarking in workerd whatever the design, so
 * this is what keeps the run under 3 minutes on 2 cores; the after side's flush writes (one flush
 * a school) are amortised over them and the one-at-a-time ones: 55 page views a school.
 */
const PAGE_VIEWS = 1000;
/** Pairs in flight during the drive (each asks both sides in turn: about 4 requests in flight per side). */
const CONCURRENCY = 8;
/** Pairs asked one at a time after the drive (sides alternating): a teacher's page request, and the object calls' own time. */
const ONE_AT_A_TIME = 300;

const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const beforeHash = commitHash(BEFORE);
const afterCommit = argValue("--after");
const beforeDir = await commitSource(BEFORE, log);
const afterDir = afterCommit ? await commitSource(afterCommit, log) : ROOT;
const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: ROOT, encoding: "utf8" }).trim() !== "";
const afterLabel = afterCommit ? commitHash(afterCommit).slice(0, 7) : `working tree (HEAD ${head}${dirty ? ", with changes" : ""})`;
if (!afterCommit && !process.argv.includes("--no-build")) {
  log("building the working tree");
  await buildWorkingTree();
}
const base = await ensureCapacityBase(beforeDir, beforeHash, log);
const sources = { before: beforeDir, after: afterDir };
const staged = {} as Record<Side["name"], ReturnType<typeof stageSide> & { state: string }>;
for (const name of ["before", "after"] as const) {
  const dir = join(CAPACITY_DIR, name);
  const state = join(dir, "state");
  const migrations = await copyBase(sources[name], state);
  staged[name] = { ...stageSide(sources[name], dir), state };
  if (migrations.length) log(`${name}: applied ${migrations.join(", ")} to its copy of the base`);
}
log(`serving ${BEFORE} (before) and ${afterLabel} (after)`);
const servers: Partial<Record<Side["name"], Server>> = {};
// The dev servers run in process groups of their own: an interrupted bench stops them too.
process.once("SIGINT", () => {
  for (const server of Object.values(servers)) server?.stop();
  process.exit(130);
});
try {
  // Both start at once; a failure is thrown once both have settled, so the finally stops the other.
  const starts = await Promise.allSettled(
    (["before", "after"] as const).map(async (name) => {
      servers[name] = await serveStaged(staged[name].config, PORTS[name], staged[name].state);
    }),
  );
  for (const start of starts) if (start.status === "rejected") throw start.reason;
  const sides = await Promise.all(
    (["before", "after"] as const).map(
      async (name): Promise<Side> => ({
        name,
        origin: servers[name]!.origin,
        objects: staged[name].objects,
        cookies: await signInTeachers(servers[name]!.origin, base),
        admin: await signInAdmin(servers[name]!.origin, base),
      }),
    ),
  );
  log(`signed in ${sides[0]!.cookies.length} teachers of ${base.schools.length} schools on each side`);
  // Untimed: a cold server compiles routes and instantiates the watermark's codecs, each school's
  // object starts, and each book's pages are looked up once.
  const warmUp = everySchoolAndBook(base);
  await drivePairs(sides, base, warmUp, CONCURRENCY);
  for (const side of sides) {
    await settledProbe(side.origin);
    await resetProbe(side.origin);
  }
  log(`driving ${PAGE_VIEWS} page views on each side (${CONCURRENCY} pairs in flight)`);
  const drive = await drivePairs(sides, base, pageViews(warmUp.length, PAGE_VIEWS), CONCURRENCY);
  const afterDrive = await Promise.all(sides.map((side) => settledProbe(side.origin)));
  log(`${ONE_AT_A_TIME} page views on each side one at a time`);
  const sequential = await drivePairs(sides, base, pageViews(warmUp.length + PAGE_VIEWS, ONE_AT_A_TIME), 1);
  const measures = {} as Record<Side["name"], SideMeasure>;
  for (const [i, side] of sides.entries()) {
    const driven = await settledProbe(side.origin);
    let flushed: SideMeasure["flushed"] = null;
    if (side.objects.SCHOOLS) {
      const flushedRows = await flushSchools(side.origin, side.admin, base);
      flushed = { counts: await settledProbe(side.origin), schools: base.schools.length, flushed: flushedRows };
      log(`${side.name}: flushed ${base.schools.length} schools' objects (${flushedRows} flushed)`);
    }
    measures[side.name] = { drive: drive[side.name], sequential: sequential[side.name], afterDrive: afterDrive[i]!, driven, flushed };
  }
  const before = sideFigures(measures.before);
  const after = sideFigures(measures.after);
  console.table(comparisonRows(before, after));
  for (const [name, figures] of Object.entries({ before, after })) for (const line of detailLines(name, figures)) console.log(line);
  const targets = checkTargets(before, after);
  for (const check of targets) console.log(`${check.met ? "✔ met   " : "✖ MISSED"} ${check.target}: ${check.result}`);
  const anyFailed = [before, after].some((f) => Object.keys(f.statuses).some((code) => code !== "200"));
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const report = {
    date: new Date().toISOString(),
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    commits: { before: beforeHash.slice(0, 7), after: afterLabel },
    setup: {
      schools: base.schools.length,
      teachersPerSchool: base.teachersPerSchool,
      books: base.books,
      pageViews: PAGE_VIEWS,
      oneAtATime: ONE_AT_A_TIME,
    },
    targets: CAPACITY_TARGETS,
    checks: targets,
    before,
    after,
  };
  writeFileSync(join(ROOT, "bench/results/capacity.json"), `${JSON.stringify(report, null, 2)}\n`);
  log("wrote bench/results/capacity.json");
  if (anyFailed || targets.some((check) => !check.met)) process.exitCode = 1;
} finally {
  for (const server of Object.values(servers)) server?.stop();
}
