/**
 * The local platform as `npm start`, the e2e suite and the benches run it: one `wrangler dev`
 * session holding both Workers, the app (its built configuration, build/server/wrangler.json, which
 * the Cloudflare Vite plugin writes and `.wrangler/deploy/config.json` points plain `wrangler dev` at)
 * and the renderer (workers/renderer/wrangler.toml). One session means one workerd, one local D1,
 * one R2 bucket and one in-memory queue, under one `--persist-to` folder: the app's upload sends page
 * jobs that the renderer takes, against the database the seed filled (docs/decisions/0038).
 *
 * Crons do not fire under `wrangler dev`: `startCronTicker` calls the app's minute cron through
 * miniflare's trigger route, so page jobs a restart lost are sent again as production's cron does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { getDb } from "../../workers/db/client.ts";
import { ROOT, toolEnv } from "./env.ts";
import { withLocalState } from "./local-state.ts";

/** The app Worker as built (`react-router build`); the first config is the session's entry. */
export const APP_BUILT_CONFIG = `${ROOT}build/server/wrangler.json`;
export const RENDERER_CONFIG = `${ROOT}workers/renderer/wrangler.toml`;
/** The app's cron that sends lost page jobs again (wrangler.toml `[triggers]`, workers/app.ts `scheduled`). */
export const PAGE_JOBS_CRON = "* * * * *";
/**
 * Miniflare's route that runs the entry Worker's `scheduled` handler (wrangler 4.156 serves it on
 * every local session; the older `--test-scheduled` flag adds `/__scheduled` to the Worker itself).
 */
export const SCHEDULED_ROUTE = "/cdn-cgi/local/scheduled";

/** `wrangler dev` arguments for the app and the renderer in one session on `port`, serving `persistTo`. */
export function wranglerDevArgs(options: {
  port: number;
  persistTo: string;
  appConfig?: string;
  /** null: the app alone (a build from before the renderer existed). */
  rendererConfig?: string | null;
  /**
   * The devtools port. Unset: 0, a port the system picks, so that servers started at the same moment
   * (tests in parallel, a bench beside `npm start`) never race for wrangler's default 9229: wrangler
   * only checks 9229 is free, then binds it ("Address already in use (socket direct:1:default)").
   * null: wrangler's own choice (9229 when free, as a developer's devtools expect), for `npm start`.
   */
  inspectorPort?: number | null;
}): string[] {
  const renderer = options.rendererConfig === null ? [] : ["-c", options.rendererConfig ?? RENDERER_CONFIG];
  return [
    "dev",
    "-c",
    options.appConfig ?? APP_BUILT_CONFIG,
    ...renderer,
    "--persist-to",
    options.persistTo,
    "--port",
    String(options.port),
    "--ip",
    "127.0.0.1",
    ...(options.inspectorPort === null ? [] : ["--inspector-port", String(options.inspectorPort ?? 0)]),
    "--show-interactive-dev-session=false",
  ];
}

export interface CronTicker {
  /** Runs the cron now; resolves to whether the Worker ran it. */
  tick(): Promise<boolean>;
  stop(): void;
}

/**
 * Runs the app's page-jobs cron at `origin` now and then every `everyMs` (a minute, as in
 * production). A tick that fails (the server restarting) is skipped quietly.
 */
export function startCronTicker(origin: string, options: { everyMs?: number; cron?: string } = {}): CronTicker {
  const url = new URL(SCHEDULED_ROUTE, origin);
  url.searchParams.set("cron", options.cron ?? PAGE_JOBS_CRON);
  const tick = async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      return response.ok;
    } catch {
      return false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), options.everyMs ?? 60_000);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}

/**
 * Before a local server starts on `persistTo`: no process serves it, so every lease a page job holds
 * belongs to a server that is gone (stopped, or killed mid-job). Their jobs, and the finishes of sets
 * whose every job is done, are made due at once, so the first cron tick sends them again instead of
 * waiting out the lease (5 minutes) or the resend delay (2 minutes). Returns how many jobs were due.
 * Never call it while a server serves the state: a job still running would be delivered twice.
 */
export async function releaseLocalLeases(bindings: { DB: D1Database }): Promise<number> {
  const db = getDb(bindings.DB);
  const [row] = await db.all<{ jobs: number }>(sql`
    SELECT count(*) AS jobs FROM page_jobs
    WHERE state = 'queued' AND set_id IN (SELECT id FROM page_sets WHERE status = 'preparing')`);
  await db.run(sql`
    UPDATE page_jobs SET sent_at = 0, leased_until = CASE WHEN state = 'queued' THEN 0 ELSE leased_until END
    WHERE set_id IN (SELECT id FROM page_sets WHERE status = 'preparing')`);
  return row?.jobs ?? 0;
}

/** `releaseLocalLeases` on a state folder no server serves. */
export function releaseLeasesAt(persistTo: string): Promise<number> {
  return withLocalState(persistTo, (bindings) => releaseLocalLeases(bindings));
}

export interface LocalServer {
  origin: string;
  /** The session's workerd process ids (the Workers, local D1/R2, and wrangler's proxy), for /proc. */
  workerdPids(): number[];
  output(): string;
  /** Ends wrangler and workerd (SIGKILL: at once, as a crash or a power cut would); resolves when they are gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Releases the state's leases (no server serves it yet), then serves the app and the renderer on
 * `port` over `persistTo` in a process group of its own, and runs the page jobs' cron every minute
 * from the moment it answers: what `npm start` does, for tests and benches that stop and start it.
 */
export async function startLocalServer(options: {
  port: number;
  persistTo: string;
  appConfig?: string;
  rendererConfig?: string | null;
  args?: string[];
  /** false: no cron (a build from before the page jobs, whose `scheduled` runs the hourly housekeeping for any cron). */
  cron?: boolean;
}): Promise<LocalServer> {
  if (options.cron !== false) await releaseLeasesAt(options.persistTo);
  const origin = `http://127.0.0.1:${options.port}`;
  let output = "";
  const child: ChildProcess = spawn("wrangler", [...wranglerDevArgs(options), ...(options.args ?? [])], {
    cwd: ROOT,
    env: toolEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let cron: CronTicker | null = null;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    cron?.stop();
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {}
    if (child.exitCode === null && child.signalCode === null) await exited;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    const up = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stop("SIGKILL");
      throw new Error(`The server did not come up at ${origin}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (options.cron !== false) cron = startCronTicker(origin);
  return {
    origin,
    output: () => output,
    workerdPids: () => workerdsOf(child.pid),
    stop,
  };
}

/**
 * The workerd processes in the group wrangler (`leader`) leads: wrangler dev runs two, a small one
 * for its proxy and the one that runs the Workers and local D1/R2.
 */
function workerdsOf(leader: number | undefined): number[] {
  if (!leader) return [];
  const found: number[] = [];
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        // fields[2] is the process group (man 5 proc: pgrp, after state and ppid).
        if (Number(fields[2]) === leader && stat.includes("(workerd)")) found.push(Number(entry));
      } catch {}
    }
  } catch {}
  return found;
}
