import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ROOT, runOrExit, toolEnv } from "../../scripts/lib/env.ts";
import { seedLocal } from "../../scripts/lib/seed-local.ts";
import { startMailCatcher } from "../support/mail-catcher.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    port: number;
    demo: { teacherPassword: string; adminEmail: string; adminPassword: string; superadminEmail: string; superadminPassword: string };
    mailCatcherURL: string;
    persistTo: string;
  }
}

const PORT = Number(process.env.E2E_PORT ?? 8790);
// Its own state, wiped every run, so the tests always meet exactly the seeded world.
const PERSIST = join(ROOT, ".wrangler/e2e-state");

let server: ChildProcess | undefined;
let mailCatcher: Awaited<ReturnType<typeof startMailCatcher>> | undefined;

export default async function setup(project: TestProject) {
  if (!existsSync(join(ROOT, "build/server/index.js"))) await runOrExit("react-router", ["build"]);
  rmSync(PERSIST, { recursive: true, force: true });
  const { env } = await seedLocal(PERSIST);
  // Real e-mail: the app sends its codes over SMTP to a server on loopback that the tests read.
  const mail = await startMailCatcher();
  mailCatcher = mail;

  const args = ["dev", "--port", String(PORT), "--ip", "127.0.0.1", "--persist-to", PERSIST, "--show-interactive-dev-session=false"];
  args.push("--var", `SMTP_URL:smtp://127.0.0.1:${mail.smtpPort}`, "--var", "MAIL_FROM:Lectern <no-reply@lectern.test>");
  server = spawn("wrangler", args, {
    cwd: ROOT,
    env: toolEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  server.stdout?.on("data", (c) => (output += c));
  server.stderr?.on("data", (c) => (output += c));
  const baseURL = `http://localhost:${PORT}`;
  await waitForHealth(`http://127.0.0.1:${PORT}/api/health`, () => output);

  project.provide("baseURL", baseURL);
  project.provide("port", PORT);
  project.provide("mailCatcherURL", `http://127.0.0.1:${mail.httpPort}`);
  project.provide("persistTo", PERSIST);
  project.provide("demo", {
    teacherPassword: env.DEMO_TEACHER_PASSWORD,
    adminEmail: env.DEMO_ADMIN_EMAIL,
    adminPassword: env.DEMO_ADMIN_PASSWORD,
    superadminEmail: env.DEMO_SUPERADMIN_EMAIL,
    superadminPassword: env.DEMO_SUPERADMIN_PASSWORD,
  });

  return async () => {
    await mailCatcher?.close();
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {}
    }
  };
}

async function waitForHealth(url: string, output: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) throw new Error(`wrangler dev exited:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The app did not come up at ${url}:\n${output()}`);
}
