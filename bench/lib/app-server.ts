import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runOrExit, toolEnv } from "../../scripts/lib/env.ts";
import { seedLocal } from "../../scripts/lib/seed-local.ts";

/** A fresh, seeded copy of the built app on loopback, in its own state folder. */
export async function startApp(options: { port: number; state: string; prepare?: (persistTo: string) => Promise<void> }) {
  if (!existsSync(join(ROOT, "build/server/index.js"))) await runOrExit("react-router", ["build"]);
  const { persistTo, env } = await seedState(options.state, options.prepare);
  return { ...(await serveApp({ port: options.port, persistTo })), env };
}

/** A state folder emptied, migrated and seeded with the demo data (seedLocal does both), then handed to `prepare`. */
export async function seedState(state: string, prepare?: (persistTo: string) => Promise<void>) {
  const persistTo = join(ROOT, state);
  for (let attempt = 1; ; attempt++) {
    rmSync(persistTo, { recursive: true, force: true });
    try {
      const { env } = await seedLocal(persistTo);
      await prepare?.(persistTo);
      return { persistTo, env };
    } catch (error) {
      // On a busy machine local D1 sometimes drops the seed's large batches ("fetch failed: other
      // side closed" in seedDemoUsage); the seed starts from an empty folder, so it is run again.
      if (attempt >= 3 || !String((error as Error).message).includes("fetch failed")) throw error;
      console.warn(`seeding ${state} failed (${(error as Error).message}); seeding again (attempt ${attempt + 1})`);
    }
  }
}

/** `wrangler dev` on the built app over an existing state folder, on loopback; stop() ends its process group. */
export async function serveApp(options: { port: number; persistTo: string }) {
  const child: ChildProcess = spawn(
    "wrangler",
    [
      "dev",
      "--port",
      String(options.port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      options.persistTo,
      "--show-interactive-dev-session=false",
      "--log-level",
      "warn",
    ],
    { cwd: ROOT, env: toolEnv(), stdio: "ignore", detached: true },
  );
  const origin = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
      throw new Error("app did not start");
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    origin,
    persistTo: options.persistTo,
    /** The process group of `wrangler dev` and its workerd (bench/lib/process-cpu.ts reads their CPU time). */
    processGroup: child.pid ?? 0,
    stop() {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    },
  };
}

/** Logs a demo teacher in and returns the session cookie. */
export async function teacherCookie(origin: string, slug: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/teacher/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ email, password, slug }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

/** Logs the demo admin in and returns the session cookie. */
export async function adminCookie(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`admin login failed: ${response.status} ${await response.text()}`);
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}
