import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runOrExit, toolEnv } from "../../scripts/lib/env.ts";
import { seedFresh } from "../../scripts/lib/seed-local.ts";

/** A fresh, seeded copy of the built app on loopback, in its own state folder. */
export async function startApp(options: { port: number; state: string; prepare?: (persistTo: string) => Promise<void> }) {
  if (!existsSync(join(ROOT, "build/server/index.js"))) await runOrExit("react-router", ["build"]);
  const { persistTo, env } = await seedState(options.state, options.prepare);
  return { ...(await serveApp({ port: options.port, persistTo })), env };
}

/** A state folder emptied, migrated and seeded with the demo data (seedFresh: seedLocal, tried again when local D1 drops a batch), then handed to `prepare`. */
export async function seedState(state: string, prepare?: (persistTo: string) => Promise<void>) {
  const persistTo = join(ROOT, state);
  const { env } = await seedFresh(persistTo);
  await prepare?.(persistTo);
  return { persistTo, env };
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
      // A port the system picks: wrangler's default 9229 is raced for by servers started together.
      "--inspector-port",
      "0",
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
