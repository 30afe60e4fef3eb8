import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type DevSignIn, startDevSignIn } from "../../scripts/lib/dev-sign-in.ts";
import { ROOT, runOrExit, toolEnv } from "../../scripts/lib/env.ts";
import { type CronTicker, startCronTicker, wranglerDevArgs } from "../../scripts/lib/local-server.ts";
import { seedEnv, seedLocal } from "../../scripts/lib/seed-local.ts";
import { startMailCatcher } from "../support/mail-catcher.ts";
import { APP_STATUS, E2E_STATE, SEEDED } from "./state.ts";

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
const PERSIST = E2E_STATE;

let server: ChildProcess | undefined;
let mailCatcher: Awaited<ReturnType<typeof startMailCatcher>> | undefined;
let signIn: DevSignIn | undefined;
let cron: CronTicker | undefined;

/**
 * Seeds the e2e world (or, under `npm test`, waits for tests/e2e/seed.ts, which began seeding at the
 * run's start) and starts the app on it, with the page renderer Worker in the same session and the
 * page jobs' minute cron run every minute, as `npm start` does (scripts/lib/local-server.ts). Not awaited by the setup: the other projects' tests run
 * meanwhile, and each e2e file waits for APP_STATUS (tests/e2e/wait-for-app.ts).
 */
async function bringUp(mail: { smtpPort: number }, providers: DevSignIn) {
  if (process.env.LECTERN_E2E_SEEDING === "1") {
    while (!existsSync(SEEDED)) await new Promise((r) => setTimeout(r, 500));
    const seeded = readFileSync(SEEDED, "utf8");
    if (seeded !== "ok") throw new Error(seeded);
  } else {
    if (!existsSync(join(ROOT, "build/server/index.js"))) await runOrExit("react-router", ["build"]);
    rmSync(PERSIST, { recursive: true, force: true });
    await seedLocal(PERSIST);
  }

  const args = wranglerDevArgs({ port: PORT, persistTo: PERSIST });
  args.push("--var", `SMTP_URL:smtp://127.0.0.1:${mail.smtpPort}`, "--var", "MAIL_FROM:Lectern <no-reply@lectern.test>");
  // Sign-in with Google and Microsoft: always the local stand-ins, whatever .dev.vars says.
  args.push(...providers.wranglerArgs);
  server = spawn("wrangler", args, {
    cwd: ROOT,
    env: toolEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  server.stdout?.on("data", (c) => (output += c));
  server.stderr?.on("data", (c) => (output += c));
  await waitForHealth(`http://127.0.0.1:${PORT}/api/health`, () => output);
  cron = startCronTicker(`http://127.0.0.1:${PORT}`);
}

export default async function setup(project: TestProject) {
  rmSync(APP_STATUS, { force: true });
  const env = seedEnv();
  // Real e-mail: the app sends its codes over SMTP to a server on loopback that the tests read.
  const mail = await startMailCatcher();
  mailCatcher = mail;
  // Real OpenID providers on loopback standing in for Google and Microsoft (docs/decisions/0029).
  signIn = await startDevSignIn({ appPort: PORT, alwaysLocal: true });
  const up = bringUp(mail, signIn).then(
    () => writeFileSync(APP_STATUS, "ok"),
    (error: unknown) => writeFileSync(APP_STATUS, error instanceof Error ? error.message : String(error)),
  );
  const baseURL = `http://localhost:${PORT}`;

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
    await up;
    cron?.stop();
    await mailCatcher?.close();
    await signIn?.close();
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
