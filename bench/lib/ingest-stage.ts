/**
 * The two sides `npm run bench:ingest` compares, each a snapshot the working tree cannot change under
 * it while it runs (others may rebuild or edit the renderer meanwhile; wrangler dev reloads on any
 * change and a reload empties the local queue):
 * - after: HEAD, built in a worktree, its app build copied, and its renderer Worker bundled once
 *   (`wrangler deploy --dry-run`) around a thin entry that logs PDFium's wasm heap after every job
 *   (`[ingest-heap] {...}`: workerd reports no isolate heap, the wasm heap is the renderer's bulk);
 * - before: the commit before the platform prepared pages, built in a git worktree (capacity-stage.ts),
 *   whose admin book page prepares the pages in the admin's browser.
 * Both serve copies of one seeded state (the demo world: its admin and schools).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, toolEnv } from "../../scripts/lib/env.ts";
import { seedLocal } from "../../scripts/lib/seed-local.ts";
import { commitHash, commitSource } from "./capacity-stage.ts";

export const INGEST_DIR = join(ROOT, ".wrangler/bench-ingest");
/** The last commit whose admin's browser prepared the pages (the next one, c8a6e4b, moved it to the platform). */
export const BEFORE_COMMIT = "6c23986";
const SEEDED = join(INGEST_DIR, "base.seeded");

/** The demo world, seeded once and copied for each side and run. */
export async function baseState(log: (line: string) => void): Promise<string> {
  const base = join(INGEST_DIR, "base");
  if (!existsSync(SEEDED)) {
    log("seeding the bench's base state (once)");
    rmSync(base, { recursive: true, force: true });
    await seedLocal(base);
    writeFileSync(SEEDED, new Date().toISOString());
  }
  return base;
}

/** A copy of the built app with its configuration pointing at the copy (the build itself is untouched). */
function stageApp(source: string, dir: string): string {
  const build = join(dir, "build");
  rmSync(build, { recursive: true, force: true });
  cpSync(join(source, "build"), build, { recursive: true });
  const server = join(build, "server");
  const configPath = join(server, "wrangler.json");
  const built = JSON.parse(readFileSync(configPath, "utf8")) as { d1_databases?: { migrations_dir?: string }[] };
  const config = {
    ...built,
    configPath,
    userConfigPath: configPath,
    d1_databases: built.d1_databases?.map((db) => ({ ...db, migrations_dir: join(source, "migrations") })),
  };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return configPath;
}

/** The renderer's entry with the heap log: plain JS, so the bench's Node type check never follows it into workerd code. */
const rendererEntry = (
  source: string,
) => `import renderer, { handlePageJobs } from ${JSON.stringify(join(source, "workers/renderer/index.ts"))};
import { pdfiumEngine } from ${JSON.stringify(join(source, "workers/renderer/pdfium.ts"))};
export default {
  fetch: renderer.fetch,
  async queue(batch, env) {
    await handlePageJobs(batch, env);
    let heap = -1;
    try {
      heap = (await pdfiumEngine()).pdfium.HEAPU8.length;
    } catch {}
    console.log("[ingest-heap] " + JSON.stringify({ jobs: batch.messages.map((m) => m.body), heap }));
  },
};
`;

/** `source`'s renderer bundled once into `dir`/renderer, with a configuration that serves that bundle. */
function stageRenderer(source: string, dir: string): string {
  const src = join(dir, "renderer-src");
  const out = join(dir, "renderer");
  rmSync(src, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  const toml = readFileSync(join(source, "workers/renderer/wrangler.toml"), "utf8").replace(
    /^migrations_dir = .*$/m,
    `migrations_dir = ${JSON.stringify(join(source, "migrations"))}`,
  );
  const withMain = (main: string) => toml.replace(/^main = .*$/m, `main = ${JSON.stringify(main)}`);
  writeFileSync(join(src, "entry.js"), rendererEntry(source));
  writeFileSync(join(src, "wrangler.toml"), withMain("./entry.js"));
  execFileSync("wrangler", ["deploy", "--dry-run", "--outdir", out, "-c", join(src, "wrangler.toml")], {
    cwd: source,
    env: toolEnv(),
    stdio: "ignore",
  });
  if (!existsSync(join(out, "entry.js"))) throw new Error(`bundling the renderer wrote no ${join(out, "entry.js")}`);
  writeFileSync(join(out, "wrangler.toml"), withMain("./entry.js"));
  return join(out, "wrangler.toml");
}

export interface StagedAfter {
  appConfig: string;
  rendererConfig: string;
}

/**
 * The platform as committed: HEAD (or `ref`) built in a worktree (capacity-stage.ts; the shared working tree may
 * be mid-change and not build), its app build copied and its renderer bundled. Answers the commit too.
 */
export async function stageAfter(log: (line: string) => void, ref = "HEAD"): Promise<StagedAfter & { commit: string }> {
  const commit = commitHash(ref);
  const source = await commitSource(commit, log);
  const dir = join(INGEST_DIR, "after");
  mkdirSync(dir, { recursive: true });
  return { appConfig: stageApp(source, dir), rendererConfig: stageRenderer(source, dir), commit };
}

/** The commit before the change, built once in a worktree (shared with bench:capacity's), its build copied. */
export async function stageBefore(log: (line: string) => void): Promise<string> {
  const source = await commitSource(BEFORE_COMMIT, log);
  const dir = join(INGEST_DIR, "before");
  mkdirSync(dir, { recursive: true });
  return stageApp(source, dir);
}
