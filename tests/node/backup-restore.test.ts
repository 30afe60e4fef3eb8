/**
 * `npm run backup` and `npm run restore` (docs/decisions/0046), end to end on a state of their own:
 * a teacher reads a demo book, the state is backed up, the same questions are asked of it, the state
 * is wiped and restored, and the restored state answers them the same: the teacher's old session
 * still opens the book, a fresh sign-in works, the same page comes back with the same budget left,
 * and the admin's reports show the same figures (usage the school object had not flushed included).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { addDays, dayOf } from "#shared/rules/licence.ts";
import { copyLocalState } from "../../bench/lib/state-copy.ts";
import { ROOT, toolEnv } from "../../scripts/lib/env.ts";
import { type LocalServer, startLocalServer } from "../../scripts/lib/local-server.ts";
import { applyMigrations, localVars, withLocalState } from "../../scripts/lib/local-state.ts";
import { prepareMissingPages } from "../../scripts/lib/node-pages.ts";
import { localPageStore } from "../../scripts/lib/page-stores.ts";
import { seedFresh } from "../../scripts/lib/seed-local.ts";
import { pageBudget } from "../../workers/reading/page-budget.ts";

// Folders of its own: never the .wrangler/state or e2e state other tests and `npm start` use.
const STATE = join(ROOT, ".wrangler/backup-test-state");
const BACKUP = join(ROOT, ".wrangler/backup-test-backup");
/**
 * The seeded demo the test starts from, kept between runs (seeding takes minutes on a busy machine,
 * copying it a second): made again when the seed's code or the demo accounts change.
 */
const TEMPLATE = join(ROOT, ".wrangler/backup-test-template");
const TEMPLATE_MARK = "backup-test-template.json";
const SLUG = "lincoln-high";
/** Pages of the budget the teacher leaves unspent before the backup. */
const LEFT = 5;

type Session = { origin: string; teacher: string; admin: string };

/** Servers still running, stopped after the file even when a timeout cut the test short (no `finally` runs then). */
const servers = new Set<LocalServer>();

/** The built app over the test's state, on a free port, with no cron: only the test's requests touch it. */
async function serve(): Promise<LocalServer> {
  const server = await startLocalServer({ port: await freePort(), persistTo: STATE, rendererConfig: null, cron: false });
  servers.add(server);
  return server;
}

async function stop(server: LocalServer) {
  await server.stop();
  servers.delete(server);
}

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function signIn(origin: string, path: string, body: object): Promise<string> {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(body),
  });
  await json(response);
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
}

async function signInBoth(origin: string): Promise<Session> {
  const vars = localVars();
  const teacher = await signIn(origin, "/api/teacher/login", {
    email: `demo.teacher@${SLUG}.example.org`,
    password: vars.DEMO_TEACHER_PASSWORD,
    slug: SLUG,
  });
  const admin = await signIn(origin, "/api/admin/login", { email: vars.DEMO_ADMIN_EMAIL, password: vars.DEMO_ADMIN_PASSWORD });
  return { origin, teacher, admin };
}

const get = (session: Session, path: string, cookie = session.teacher) =>
  fetch(`${session.origin}${path}`, { headers: { Cookie: cookie } });

/** Reads page texts of the book until the budget refuses one: how many it allowed, and the refusal. */
async function budgetLeft(session: Session, bookId: number, cookie: string) {
  for (let read = 0; read < 1000; read++) {
    const response = await get(session, `/api/books/${bookId}/pages/${(read % 20) + 1}/text`, cookie);
    const body = (await response.json()) as { error?: string };
    if (response.status !== 200) return { left: read, status: response.status, error: body.error ?? "" };
  }
  throw new Error("The budget never ran out");
}

/** What the teacher and the admin see, asked of a served state: the page, the budget, the reports. */
async function answers(bookId: number, schoolId: number, oldTeacherCookie: string) {
  const server = await serve();
  try {
    const session = await signInBoth(server.origin);
    // The reports first: what the state held, before this run's own reading adds to it (its reading
    // time depends on the minutes since the last page, which differ between the two runs).
    const today = dayOf(Date.now());
    const range = `from=${addDays(today, -89)}&to=${today}`;
    const reports = {
      usage: await json(await get(session, `/api/reports/usage?${range}&schoolId=${schoolId}`, session.admin)),
      teachers: await json(await get(session, `/api/reports/teachers?${range}&schoolId=${schoolId}`, session.admin)),
      schools: await json(await get(session, `/api/reports/schools?${range}`, session.admin)),
      books: await json(await get(session, `/api/reports/books?${range}`, session.admin)),
    };
    // The session from before the backup still reads (it lives in the school's object).
    const page = await get(session, `/api/books/${bookId}/pages/4`, oldTeacherCookie);
    expect(page.status).toBe(200);
    const pageHash = createHash("sha256")
      .update(Buffer.from(await page.arrayBuffer()))
      .digest("hex");
    const budget = await budgetLeft(session, bookId, session.teacher);
    return { pageHash, budget, reports };
  } finally {
    await stop(server);
  }
}

const TemplateSchema = z.object({ bookId: z.number(), schoolId: z.number(), pageCount: z.number(), source: z.string() });

/** What the template was seeded from: the seed's code and the demo accounts' settings. */
function seedSource(): string {
  const hash = createHash("sha256");
  const seedDir = join(ROOT, "scripts/seed");
  for (const file of readdirSync(seedDir).sort()) hash.update(readFileSync(join(seedDir, file)));
  hash.update(readFileSync(join(ROOT, "scripts/lib/seed-local.ts")));
  hash.update(JSON.stringify(Object.entries(localVars()).filter(([key]) => key.startsWith("DEMO_"))));
  return hash.digest("hex");
}

/** The demo world, with the pages of the one book the teacher reads (every book's would take minutes). */
async function seededTemplate(): Promise<z.infer<typeof TemplateSchema>> {
  const mark = join(TEMPLATE, TEMPLATE_MARK);
  const source = seedSource();
  if (existsSync(mark)) {
    const kept = TemplateSchema.safeParse(JSON.parse(readFileSync(mark, "utf8")));
    if (kept.success && kept.data.source === source) return kept.data;
  }
  await seedFresh(TEMPLATE, () => {}, { pages: false });
  const seeded = await withLocalState(TEMPLATE, async (env) => {
    const book = await env.DB.prepare(
      `SELECT a.book_id AS bookId, a.school_id AS schoolId FROM book_access a JOIN schools s ON s.id = a.school_id
       WHERE s.slug = ? ORDER BY a.book_id LIMIT 1`,
    )
      .bind(SLUG)
      .first<{ bookId: number; schoolId: number }>();
    if (!book) throw new Error(`${SLUG} has no book`);
    const [report] = await prepareMissingPages(localPageStore(env), { bookId: book.bookId });
    return { ...book, pageCount: report?.pages ?? 0, source };
  });
  writeFileSync(mark, JSON.stringify(seeded));
  return seeded;
}

/** The usage report's row for `date` (wherever the report keeps its days). */
function dayRow(report: unknown, date: string): unknown {
  if (Array.isArray(report)) return report.map((item) => dayRow(item, date)).find(Boolean) ?? null;
  if (typeof report !== "object" || report === null) return null;
  if ((report as { date?: unknown }).date === date) return report;
  return dayRow(Object.values(report), date);
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function runScript(script: string, args: string[]): string {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts", script), ...args], { cwd: ROOT, env: toolEnv(), encoding: "utf8" });
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`${script} exited with ${run.status}:\n${output}`);
  return output;
}

afterAll(async () => {
  await Promise.all([...servers].map((server) => server.stop()));
  rmSync(STATE, { recursive: true, force: true });
  rmSync(BACKUP, { recursive: true, force: true });
});

describe("npm run backup, then npm run restore into a wiped state", () => {
  it("gives back the same page, the same budget left and the same reports", { timeout: 600_000 }, async () => {
    rmSync(BACKUP, { recursive: true, force: true });
    const { bookId, schoolId, pageCount } = await seededTemplate();
    copyLocalState(TEMPLATE, STATE, TEMPLATE_MARK);
    // A template from before a migration another change added takes it now, as `npm start` would.
    await withLocalState(STATE, (env) => applyMigrations(env.DB));
    expect(pageCount).toBeGreaterThan(4);

    // The teacher reads three pages and spends the hour's budget down to LEFT pages.
    const first = await serve();
    let oldCookie: string;
    try {
      const session = await signInBoth(first.origin);
      oldCookie = session.teacher;
      for (const n of [1, 2, 3]) expect((await get(session, `/api/books/${bookId}/pages/${n}`)).status).toBe(200);
      const spend = pageBudget(pageCount).hour.limit - 3 - LEFT;
      for (let read = 0; read < spend; read++) {
        const response = await get(session, `/api/books/${bookId}/pages/${(read % 20) + 1}/text`);
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
    } finally {
      await stop(first);
    }

    const today = dayOf(Date.now());
    const backedUp = runScript("backup.ts", ["--persist-to", STATE, "--to", BACKUP]);
    expect(backedUp).toMatch(/school objects: 5 schools, [1-9]\d* rows/);
    expect(backedUp).toContain("Backup done");

    const before = await answers(bookId, schoolId, oldCookie);
    // The three pages read before the backup were still in the school's object (it flushes every five
    // minutes): the restored reports can only show them if the object's storage came back.
    if (dayOf(Date.now()) === today) expect(dayRow(before.reports.usage, today)).toMatchObject({ pagesRead: 3 });
    // Page 4 took one of the LEFT pages.
    expect(before.budget).toEqual({ left: LEFT - 1, status: 429, error: expect.stringContaining("reached the reading limit") });

    rmSync(STATE, { recursive: true, force: true });
    const restored = runScript("restore.ts", ["--from", BACKUP, "--persist-to", STATE]);
    expect(restored).toContain("Restore done");

    const after = await answers(bookId, schoolId, oldCookie);
    expect(after.pageHash).toBe(before.pageHash);
    expect(after.budget.left).toBe(before.budget.left);
    expect(after.budget.status).toBe(429);
    expect(after.reports).toEqual(before.reports);
    // The limit's sentence names the wait, which may have crossed a minute between the two runs.
    expect(after.budget.error).toMatch(/^You have reached the reading limit for this book/);
  });
});
