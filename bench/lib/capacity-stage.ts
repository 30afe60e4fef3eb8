/**
 * The two builds the capacity bench compares, each copied with the probe (capacity-probe*.ts) into a
 * folder of its own and served by `wrangler dev` from there: a rebuild of the working tree while the
 * bench runs cannot swap the code under a running side, and the before side's build is made once.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join } from "node:path";
import { ROOT, toolEnv } from "../../scripts/lib/env.ts";

export const CAPACITY_DIR = join(ROOT, ".wrangler/bench-capacity");
/** The probe's modules (bench/lib/*.ts), copied into the build as .js. */
const PROBE_MODULES = ["capacity-probe", "capacity-probe-counts", "capacity-probe-d1"];
const ENTRY = "capacity-entry.js";
const CONFIG = "capacity.wrangler.json";

/** Runs a tool from node_modules/.bin in `cwd`, its output kept and shown only when it fails. */
function runQuietly(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} in ${cwd} failed:\n${output}`))));
  });
}

/** The commit as a full hash. */
export const commitHash = (commit: string) =>
  execFileSync("git", ["rev-parse", `${commit}^{commit}`], { cwd: ROOT, encoding: "utf8" }).trim();

/**
 * A git worktree of `commit` under .wrangler, built once: its node_modules and page cache are the
 * working tree's (symlinks), its .dev.vars a copy, so it seeds and signs in with the same secrets.
 */
export async function commitSource(commit: string, log: (line: string) => void): Promise<string> {
  const hash = commitHash(commit);
  const dir = join(CAPACITY_DIR, `src-${hash.slice(0, 7)}`);
  const head = existsSync(join(dir, ".git")) ? execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8" }).trim() : null;
  if (head !== hash) {
    log(`checking out ${commit} into ${dir}`);
    if (existsSync(dir)) execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: ROOT, stdio: "ignore" });
    execFileSync("git", ["worktree", "prune"], { cwd: ROOT });
    execFileSync("git", ["worktree", "add", "--detach", dir, hash], { cwd: ROOT, stdio: "ignore" });
  }
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  // The link's target must exist first: existsSync follows a link, so a link to a missing folder
  // reads as absent and linking it again threw EEXIST on a machine with no page cache yet.
  mkdirSync(join(ROOT, ".wrangler/page-cache"), { recursive: true });
  if (!existsSync(join(dir, ".wrangler/page-cache"))) {
    mkdirSync(join(dir, ".wrangler"), { recursive: true });
    symlinkSync(join(ROOT, ".wrangler/page-cache"), join(dir, ".wrangler/page-cache"));
  }
  copyFileSync(join(ROOT, ".dev.vars"), join(dir, ".dev.vars"));
  if (!existsSync(join(dir, "build/server/index.js"))) {
    log(`building ${commit}`);
    await runQuietly("react-router", ["build"], dir);
  }
  return dir;
}

/** `react-router build` in the working tree (build/ is shared with whoever else builds there). */
export const buildWorkingTree = () => runQuietly("react-router", ["build"], ROOT);

interface BuiltConfig {
  main: string;
  durable_objects?: { bindings?: { name: string; class_name: string; script_name?: string }[] };
  d1_databases?: { migrations_dir?: string }[];
  [key: string]: unknown;
}

export interface StagedSide {
  config: string;
  /** The Durable Object namespaces the Worker binds (name -> class): none before the school object. */
  objects: Record<string, string>;
}

/**
 * Copies `source`'s build to `dir`/build and adds the probe: its code with the types stripped, an
 * entry that wraps the built Worker (and subclasses each Durable Object class it declares, so the
 * objects' own D1 work is counted), and a configuration that is the built one with that entry as
 * main, beside a copy of the side's .dev.vars.
 */
export function stageSide(source: string, dir: string): StagedSide {
  const build = join(dir, "build");
  rmSync(build, { recursive: true, force: true });
  cpSync(join(source, "build"), build, { recursive: true });
  const server = join(build, "server");
  const built = JSON.parse(readFileSync(join(server, "wrangler.json"), "utf8")) as BuiltConfig;
  const objects = Object.fromEntries(
    (built.durable_objects?.bindings ?? []).filter((b) => !b.script_name).map((b) => [b.name, b.class_name] as const),
  );
  // Node warns once that type stripping is experimental; the bench's output is no place for it.
  const warn = process.emitWarning;
  process.emitWarning = () => {};
  try {
    for (const module of PROBE_MODULES) {
      const code = stripTypeScriptTypes(readFileSync(join(ROOT, "bench/lib", `${module}.ts`), "utf8"));
      writeFileSync(join(server, `${module}.js`), code.replace(/from "\.\/(capacity-probe[\w-]*)\.ts"/g, 'from "./$1.js"'));
    }
  } finally {
    process.emitWarning = warn;
  }
  const entry = [
    `import * as built from "./${built.main}";`,
    'import { probeWorker } from "./capacity-probe.js";',
    "const probe = probeWorker(built);",
    "export default probe.handler;",
    ...[...new Set(Object.values(objects))].map((name) => `export const ${name} = probe.objectClass(${JSON.stringify(name)});`),
  ];
  writeFileSync(join(server, ENTRY), `${entry.join("\n")}\n`);
  const config = {
    ...built,
    main: ENTRY,
    configPath: join(server, CONFIG),
    userConfigPath: join(server, CONFIG),
    d1_databases: built.d1_databases?.map((db) => ({ ...db, migrations_dir: join(source, "migrations") })),
  };
  writeFileSync(join(server, CONFIG), JSON.stringify(config, null, 2));
  copyFileSync(join(source, ".dev.vars"), join(server, ".dev.vars"));
  return { config: join(server, CONFIG), objects };
}

export interface Server {
  origin: string;
  stop(): void;
}

/**
 * `wrangler dev` on a staged configuration over a state folder, on loopback, its output in
 * wrangler.log beside the configuration; stop() ends its process group.
 */
export async function serveStaged(config: string, port: number, persistTo: string): Promise<Server> {
  const dir = join(config, "..");
  const output = openSync(join(dir, "wrangler.log"), "w");
  const args = ["dev", "-c", config, "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persistTo];
  // Two dev servers at once need inspector ports of their own: ones the system picks.
  args.push("--inspector-port", "0", "--show-interactive-dev-session=false", "--log-level", "warn");
  const child: ChildProcess = spawn("wrangler", args, { cwd: dir, env: toolEnv(), stdio: ["ignore", output, output], detached: true });
  closeSync(output);
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return { origin, stop };
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      const tail = readFileSync(join(dir, "wrangler.log"), "utf8").split("\n").slice(-20).join("\n");
      throw new Error(`wrangler dev -c ${config} did not start:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
