// Books prepare themselves (issue 42): the platform's renderer Worker, run beside the app by the e2e
// server as by `npm start` (scripts/lib/local-server.ts), prepares every uploaded PDF with no browser
// open. An admin adds a book in the console and closes the tab the moment the upload ends; a teacher
// of a school it is given to reads its first page within 60 s. And `kill -9` of the local server in
// the middle of a book loses nothing: started again, it finishes with every page stored exactly once.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { PAGE_WIDTHS, STORED_PAGE_EXTENSION } from "#shared/rules/page-format.ts";
import { freePorts } from "../../bench/lib/free-ports.ts";
import { AdminClient, type PagesStatus, watchPreparation } from "../../bench/lib/ingest-api.ts";
import { copyLocalState } from "../../bench/lib/state-copy.ts";
import { ROOT } from "../../scripts/lib/env.ts";
import { type LocalServer, startLocalServer } from "../../scripts/lib/local-server.ts";
import { withLocalState } from "../../scripts/lib/local-state.ts";
import { baseURL, openPage, setupBrowser } from "./browser.ts";
import { adminLogin, signInDemoTeacher } from "./support.ts";

setupBrowser();

const SLUG = "roosevelt-elementary";

/** A PDF of `pages` text pages, each naming its number (so a page shown is told from another). */
async function textPdf(title: string, pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([420, 595]);
    page.drawText(`${title}, page ${n}`, { x: 40, y: 540, size: 20, font });
    for (let line = 0; line < 28; line++)
      page.drawText(`Line ${line + 1} of page ${n}: the platform prepares this page.`, { x: 40, y: 500 - line * 16, size: 11, font });
  }
  return pdf.save();
}

const admin = () => AdminClient.signIn(baseURL(), inject("demo").adminEmail, inject("demo").adminPassword);

describe("a book uploaded in the console, its tab closed at once", () => {
  it("is read by a teacher of an assigned school within 60 s, with no browser preparing it", { timeout: 120_000 }, async () => {
    const title = `Closed Tab ${Date.now().toString(36)}`;
    const path = join(mkdtempSync(join(tmpdir(), "lectern-e2e-")), "closed-tab.pdf");
    writeFileSync(path, await textPdf(title, 12));

    const page = await openPage();
    await adminLogin(page);
    await page.goto(`${baseURL()}/admin/add-books`);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Author", { exact: true }).fill("Tab Closer");
    await page.getByLabel("PDF").setInputFiles(path);
    await page.getByText("12 pages").first().waitFor();
    const completed = page.waitForResponse((r) => /\/api\/books\/\d+\/upload\/pdf\/[^/]+\/complete$/.test(r.url()) && r.ok(), {
      timeout: 60_000,
    });
    await page.getByRole("button", { name: "Add Book" }).click();
    const response = await completed;
    // The upload has ended: the admin closes the tab before any page of the console could prepare anything.
    await page.context().close();
    const closedAt = Date.now();
    const bookId = Number(/\/api\/books\/(\d+)\//.exec(response.url())?.[1]);
    expect(bookId).toBeGreaterThan(0);

    const api = await admin();
    await api.assign(bookId, await api.schoolId(SLUG));

    // A teacher of the school asks for page 1 until it is there, then reads it in the reader.
    const teacher = await openPage();
    await signInDemoTeacher(teacher, baseURL(), SLUG);
    let status = 0;
    while (Date.now() - closedAt < 60_000) {
      status = await teacher.evaluate(async (id) => (await fetch(`/api/books/${id}/pages/1?w=1024`)).status, bookId);
      if (status === 200) break;
      await teacher.waitForTimeout(500);
    }
    expect(status).toBe(200);
    await teacher.goto(`${baseURL()}/schools/${SLUG}/dashboard/book/${bookId}/view`);
    await teacher
      .locator('[data-page-number="1"][data-rendered="true"]')
      .waitFor({ timeout: Math.max(1_000, 60_000 - (Date.now() - closedAt)) });
    const readAfter = (Date.now() - closedAt) / 1000;
    expect(readAfter).toBeLessThan(60);
    console.log(`page 1 read by the teacher ${readAfter.toFixed(1)} s after the tab closed`);

    // The platform finishes the book on its own (and this file leaves the e2e server idle).
    const done = await watchPreparation(api, bookId, closedAt, { everyMs: 500, timeoutMs: 90_000 });
    expect(done.whole).not.toBeNull();
    expect(done.pageCount).toBe(12);
    expect(done.failed).toEqual([]);
  });
});

describe("kill -9 of the local server in the middle of a book", () => {
  const state = join(ROOT, ".wrangler/e2e-fault-state");
  let server: LocalServer | null = null;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(state, { recursive: true, force: true });
  });

  it("resumes when it comes back, and every page ends stored exactly once", { timeout: 180_000 }, async () => {
    const PAGES = 40;
    // A copy of the e2e world (its admin and migrations), so killing this server leaves the others' alone.
    copyLocalState(inject("persistTo"), state, "no file is skipped");
    const [port] = await freePorts(1);
    const serve = () => startLocalServer({ port: port!, persistTo: state });
    server = await serve();

    let api = await AdminClient.signIn(server.origin, inject("demo").adminEmail, inject("demo").adminPassword);
    const bookId = await api.createBook(`Killed Midway ${Date.now().toString(36)}`);
    const { endedAt } = await api.uploadPdf(bookId, await textPdf("Killed midway", PAGES));

    // Watch until some pages are stored but not all.
    let before: PagesStatus | null = null;
    for (;;) {
      const status = await api.pagesStatus(bookId);
      const done = status.preparing?.done.length ?? 0;
      if (done >= 6 && done < PAGES) {
        before = status;
        break;
      }
      expect(status.ready, "the book finished before the server could be killed").toBeNull();
      expect(Date.now() - endedAt).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // wrangler and workerd at once, as a crash or a power cut would end them.
    await server.stop("SIGKILL");
    const killedAt = Date.now();
    const setId = before.preparing!.id;
    const storedBefore = new Set(before.preparing!.done);

    // As `npm start` again: the leases the killed server held are released, the cron sends the jobs again.
    server = await serve();
    api = await AdminClient.signIn(server.origin, inject("demo").adminEmail, inject("demo").adminPassword);
    const times = await watchPreparation(api, bookId, killedAt, { everyMs: 250, timeoutMs: 90_000 });
    expect(times.whole, "the book was not finished after the restart").not.toBeNull();
    console.log(`killed with ${storedBefore.size}/${PAGES} pages stored; whole ${times.whole?.toFixed(1)} s after the kill`);
    await server.stop("SIGTERM");
    server = null;

    // What the state holds: one row per page, no failure, and each page's objects in R2.
    await withLocalState(state, async ({ DB, BOOKS }) => {
      const rows = await DB.prepare("SELECT n, error FROM page_set_pages WHERE set_id = ? ORDER BY n")
        .bind(setId)
        .all<{ n: number; error: string | null }>();
      expect(rows.results.map((row) => row.n)).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
      expect(rows.results.filter((row) => row.error)).toEqual([]);
      const set = await DB.prepare("SELECT status FROM page_sets WHERE id = ?").bind(setId).first<{ status: string }>();
      expect(set?.status).toBe("ready");
      const jobs = await DB.prepare("SELECT count(*) AS queued FROM page_jobs WHERE set_id = ? AND state != 'done'")
        .bind(setId)
        .first<{ queued: number }>();
      expect(jobs?.queued).toBe(0);

      const prefix = `pages/${bookId}/${setId}/`;
      const uploaded = new Map<string, Date>();
      for (let cursor: string | undefined; ; ) {
        const listed = await BOOKS.list({ prefix, cursor });
        for (const object of listed.objects) uploaded.set(object.key.slice(prefix.length), object.uploaded);
        if (!listed.truncated) break;
        cursor = listed.cursor;
      }
      const rewritten: number[] = [];
      for (let n = 1; n <= PAGES; n++) {
        const names = [`${n}.json`, ...PAGE_WIDTHS.map((width) => `${n}-${width}.${STORED_PAGE_EXTENSION}`)];
        for (const name of names) expect(uploaded.has(name), `${name} is missing`).toBe(true);
        // A page stored before the kill is not prepared again after it.
        if (storedBefore.has(n) && names.some((name) => uploaded.get(name)!.getTime() > killedAt)) rewritten.push(n);
      }
      expect(rewritten).toEqual([]);
    });
  });
});
