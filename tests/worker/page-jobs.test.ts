// Books prepare themselves (issue 42, docs/decisions/0038): a PDF uploaded through the API is turned
// into pages by the renderer (PDFium in workerd) through the real local queue, with no browser.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books, pageJobs, pageSetPages, pageSets, preparationNotices } from "../../workers/db/schema.ts";
import { inspectPageImage } from "../../workers/page-images/page-image.ts";
import { outlineKey, pageImageKey, pageTextKey, searchTextKey } from "../../workers/page-images/page-keys.ts";
import { api, createBook, createSchool, db, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { readyBook, uploadThroughApi, wordsPdf } from "./page-job-fixtures.ts";

describe("a PDF uploaded through the API is prepared by the platform", () => {
  it("renders every page at both widths with its text, search text and notice; a teacher reads page 1", async () => {
    const { cookie, admin } = await signedInAdmin();
    const school = await createSchool();
    const book = await createBook({ title: "Platform Prepared" }, [school.id], { pdf: false });
    const words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo"];
    await uploadThroughApi(cookie, book.id, await wordsPdf(words));
    const ready = await readyBook(book.id);
    expect(ready.pageCount).toBe(5);
    const setId = ready.pageSetId!;
    const rows = await db().select().from(pageSetPages).where(eq(pageSetPages.setId, setId)).orderBy(pageSetPages.n);
    expect(rows.map((row) => [row.n, row.error, row.width, row.height])).toEqual(words.map((_, i) => [i + 1, null, 612, 792]));
    for (const n of [1, 5]) {
      for (const width of [1024, 2048]) {
        const object = await env.BOOKS.get(pageImageKey(book.id, setId, n, width, "png"));
        const image = inspectPageImage(new Uint8Array(await object!.arrayBuffer()));
        expect(image).toMatchObject({ type: "image/png", width, height: Math.round((792 * width) / 612) });
      }
      const text = (await (await env.BOOKS.get(pageTextKey(book.id, setId, n)))!.json()) as {
        runs: { str: string; x: number; y: number; h: number }[];
      };
      expect(text.runs.map((run) => run.str)).toEqual([words[n - 1]]);
      // Where pdf.js put it: x at 72 pt, the run's top at the baseline (792 - 700) less the font size.
      expect(text.runs[0]!.x).toBeCloseTo(72, 0);
      expect(text.runs[0]!.h).toBeCloseTo(24, 0);
      expect(text.runs[0]!.y).toBeCloseTo(792 - 700 - 24, 0);
    }
    expect(await (await env.BOOKS.get(searchTextKey(book.id, setId)))!.json()).toEqual(words);
    expect(await env.BOOKS.head(outlineKey(book.id, setId))).toBeNull();
    const jobs = await db().select().from(pageJobs).where(eq(pageJobs.setId, setId));
    expect(jobs.map((job) => [job.first, job.last, job.state])).toEqual([
      [0, 0, "done"],
      [1, 3, "done"],
      [4, 5, "done"],
    ]);
    const [notice] = await db().select().from(preparationNotices).where(eq(preparationNotices.bookId, book.id));
    expect(notice).toMatchObject({ outcome: "ready", adminId: admin.id, pageCount: 5, failedPages: 0 });
    const [set] = await db().select().from(pageSets).where(eq(pageSets.id, setId));
    expect(set!.status).toBe("ready");

    const teacher = await signedInTeacher(school);
    // Raw: the route reads `w` itself (not declared to Hono), so the typed client cannot send it.
    const image = await api(`/api/books/${book.id}/pages/1?w=1024`, { cookie: teacher.cookie });
    expect(image.status).toBe(200);
  });
});
