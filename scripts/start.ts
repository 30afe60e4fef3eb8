// npm start: build, migrate and seed local D1/R2 (miniflare, scripts/lib/local-state.ts), then serve the built app Worker and the
// page renderer Worker in one wrangler dev session on a fixed port (one local D1, R2 and queue: scripts/lib/local-server.ts),
// with the app's minute cron run every minute (page jobs a restart lost are sent again), and local stand-ins for Google and
// Microsoft when the publisher's applications are not set (scripts/lib/dev-sign-in.ts).
import { spawn } from "node:child_process";
import { DEV_PROVIDER_PORTS, type DevProviderMode, startDevSignIn } from "./lib/dev-sign-in.ts";
import { ensureDevVars, ROOT, runOrExit, toolEnv } from "./lib/env.ts";
import { type CronTicker, startCronTicker, wranglerDevArgs } from "./lib/local-server.ts";
import { DEFAULT_STATE, seedLocal } from "./lib/seed-local.ts";
import { DEMO_SCHOOLS, demoSchoolDomain, demoTeacherEmail } from "./seed/demo-schools.ts";

const PORT = Number(process.env.PORT ?? 8787);

ensureDevVars();
if (!process.argv.includes("--no-build")) await runOrExit("react-router", ["build"]);
console.log("Migrating and seeding demo data (the first run renders 25 books, their covers and their pages)...");
const { report, env } = await seedLocal(DEFAULT_STATE, (line) => console.log(line), { beforeServer: true });
console.log(
  `Seeded ${report.schools} schools, ${report.books} books, ${report.objects} files, ${report.accounts} accounts (0 = already there).`,
);

const signIn = await startDevSignIn({ appPort: PORT, ports: DEV_PROVIDER_PORTS });

// Its own process group, so stopping `npm start` also stops workerd.
const wranglerArgs = [...wranglerDevArgs({ port: PORT, persistTo: DEFAULT_STATE, inspectorPort: null }), ...signIn.wranglerArgs];
const server = spawn("wrangler", wranglerArgs, {
  cwd: ROOT,
  env: toolEnv(),
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
let cron: CronTicker | undefined;
const stop = () => {
  cron?.stop();
  try {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  } catch {}
};
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.on(signal, () => {
    stop();
    process.exit(code);
  });
}
process.on("exit", stop);
server.on("exit", (code) => process.exit(code ?? 1));

let announced = false;
server.stdout?.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes("Ready on")) {
    announced = true;
    // Crons do not fire under wrangler dev: the page jobs' minute cron, now (work a restart left) and every minute.
    cron = startCronTicker(`http://127.0.0.1:${PORT}`);
    announce();
  }
});

function announce() {
  const url = `http://localhost:${PORT}`;
  const lines = [
    "",
    "  Lectern is running.",
    "",
    `  Landing page      ${url}/`,
    `  Admin             ${url}/admin   (or http://admin.localhost:${PORT}/)`,
    `    admin           ${env.DEMO_ADMIN_EMAIL} / ${env.DEMO_ADMIN_PASSWORD}`,
    `    superadmin      ${env.DEMO_SUPERADMIN_EMAIL} / ${env.DEMO_SUPERADMIN_PASSWORD}   (${url}/superadmin/login)`,
    "  Schools (by path, or by subdomain):",
    ...DEMO_SCHOOLS.map((s) => `    ${url}/${s.slug.padEnd(22)} http://${s.slug}.localhost:${PORT}/`),
    `  Demo teachers     demo.teacher@{slug}.example.org / ${env.DEMO_TEACHER_PASSWORD}`,
    `                    e.g. ${demoTeacherEmail("lincoln-high")}  (each is their school's coordinator: "My school")`,
    ...signInLines(),
    "",
    "  Press Ctrl+C to stop.",
    "",
  ];
  console.log(lines.join("\n"));
}

/** How the demo schools' "Sign in with Google/Microsoft" buttons sign in. */
function signInLines(): string[] {
  const anyAddress = `any address @${demoSchoolDomain("lincoln-high")} (@{slug}.example.org)`;
  const { google, microsoft } = signIn.modes;
  if (google.kind === "local" && microsoft.kind === "local")
    return [
      `  Sign in with Google/Microsoft: ${anyAddress}, on the local provider`,
      `                    (Google ${google.issuer}, Microsoft ${microsoft.issuer})`,
    ];
  const describe = (mode: DevProviderMode) =>
    mode.kind === "local"
      ? `${anyAddress}, on the local provider at ${mode.issuer}`
      : `the publisher's own application (OIDC_* from ${mode.source})`;
  return [`  Sign in with Google:    ${describe(google)}`, `  Sign in with Microsoft: ${describe(microsoft)}`];
}
