// The reader's data saver (docs/decisions/0048): `?w=640&saver=1` is the page a teacher reads on a
// slow connection, so it is counted as read (a plain 640 px preview is not), and stamped with fewer
// greys, so it is smaller than the preview of the same page. Admins get the stored image whatever
// they ask; a malformed `saver` is refused.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_WIDTH } from "#shared/rules/page-format.ts";
import { readingDaily } from "../../workers/db/usage-schema.ts";
import { api, createSchool, db, errorBody, flushUsage, pagesSpent, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

let school: Awaited<ReturnType<typeof createSchool>>;
let bookId: number;

beforeAll(async () => {
  school = await createSchool();
  const words = "The data saver keeps a page legible on a slow connection while it sends fewer bytes.";
  bookId = (await preparedBook("Saver Book", [school.id], [words, words, words])).book.id;
});

// `w` and `saver` are read by the route itself, not declared to Hono: as a script would send them.
const page = (n: number, query: string, cookie: string) => api(`/api/books/${bookId}/pages/${n}?${query}`, { cookie });

/** The width and bit depth in a PNG's header. */
async function pngHeader(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  return { width: new DataView(bytes.buffer).getUint32(16), bytes: bytes.byteLength };
}

async function pagesRead(teacherId: number): Promise<number> {
  await flushUsage(school.id);
  const rows = await db().select().from(readingDaily).where(eq(readingDaily.teacherId, teacherId));
  return rows.reduce((n, row) => n + row.pages, 0);
}

describe("GET /api/books/:id/pages/:n?w=640&saver=1", () => {
  it("counts as a page read for a teacher, and spends one page of the budget", async () => {
    const { teacher, cookie } = await signedInTeacher(school, "Saver Reader");
    const response = await page(1, `w=${PREVIEW_WIDTH}&saver=1`, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await pngHeader(response)).width).toBe(PREVIEW_WIDTH);
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(1);
    expect(await pagesRead(teacher.id)).toBe(1);
  });

  it("is smaller than the plain preview of the same page, which is not counted as read", async () => {
    const { teacher, cookie } = await signedInTeacher(school, "Saver Comparer");
    const preview = await pngHeader(await page(2, `w=${PREVIEW_WIDTH}`, cookie));
    const saver = await pngHeader(await page(2, `w=${PREVIEW_WIDTH}&saver=1`, cookie));
    expect(saver.width).toBe(preview.width);
    expect(saver.bytes).toBeLessThan(preview.bytes);
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(2);
    expect(await pagesRead(teacher.id)).toBe(1);
  });

  it("is the stored 1024 px image for an admin, saver or not", async () => {
    const { cookie } = await signedInAdmin();
    const plain = await pngHeader(await page(1, "w=1024", cookie));
    const saver = await pngHeader(await page(1, `w=${PREVIEW_WIDTH}&saver=1`, cookie));
    expect(saver).toEqual(plain);
    expect(saver.width).toBe(1024);
  });

  it("refuses a malformed saver with 400 and a sentence, spending nothing", async () => {
    const { teacher, cookie } = await signedInTeacher(school, "Saver Typist");
    for (const value of ["0", "true", "", "1,1", "2"]) {
      const response = await page(3, `w=${PREVIEW_WIDTH}&saver=${value}`, cookie);
      expect(response.status, `saver=${value}`).toBe(400);
      expect((await errorBody(response)).error).toBe("saver must be 1 (the data saver) or left out");
    }
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(0);
  });

  it("asks a signed-out script to sign in before anything else", async () => {
    const response = await api(`/api/books/${bookId}/pages/1?w=${PREVIEW_WIDTH}&saver=nope`);
    expect(response.status).toBe(401);
  });
});
