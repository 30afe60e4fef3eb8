// The reader's first look at a page: teachers asking for less than the narrowest stored width get a
// PREVIEW_WIDTH image shrunk from it (box filter), stamped like any page; it costs budget, and the
// sharp image that follows is the read the usage figures count.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_WIDTH } from "#shared/rules/page-format.ts";
import { readingDaily } from "../../workers/db/usage-schema.ts";
import { downscalePixels } from "../../workers/page-images/downscale.ts";
import { api, createSchool, db, flushUsage, pagesSpent, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

let school: Awaited<ReturnType<typeof createSchool>>;
let bookId: number;

beforeAll(async () => {
  school = await createSchool();
  bookId = (await preparedBook("Preview Book", [school.id], ["first page words", "second page words"])).book.id;
});

// The page image's `w` is read by the route itself, not declared to Hono, so the typed client cannot
// send it: these calls stay raw.

/** The width in a PNG's header (the stamped grey pages are 4-bit PNGs, which the page decoder does not read). */
const pngWidth = async (response: Response) => {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  return new DataView(bytes.buffer).getUint32(16);
};

describe("a page preview", () => {
  it("is PREVIEW_WIDTH wide for a teacher asking below the narrowest stored width, stamped like any page", async () => {
    const teacher = await signedInTeacher(school, "Preview Reader");
    for (const w of [PREVIEW_WIDTH, 300, 1]) {
      const response = await api(`/api/books/${bookId}/pages/1?w=${w}`, { cookie: teacher.cookie });
      expect(response.status, `w=${w}`).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      expect(await pngWidth(response)).toBe(PREVIEW_WIDTH);
    }
    expect(await pngWidth(await api(`/api/books/${bookId}/pages/1?w=1024`, { cookie: teacher.cookie }))).toBe(1024);
  });

  it("is not made for admins: they get the stored page", async () => {
    const { cookie } = await signedInAdmin();
    const response = await api(`/api/books/${bookId}/pages/1?w=${PREVIEW_WIDTH}`, { cookie });
    expect(await pngWidth(response)).toBe(1024);
  });

  it("costs a page of the budget but is not counted as a page read; the sharp image is", async () => {
    const teacher = await signedInTeacher(school, "Budget Reader");
    const spent = () => pagesSpent(school, teacher.teacher.id, bookId);
    const read = async () => {
      await flushUsage(school.id);
      return (await db().select().from(readingDaily).where(eq(readingDaily.teacherId, teacher.teacher.id))).reduce(
        (n, row) => n + row.pages,
        0,
      );
    };
    expect((await api(`/api/books/${bookId}/pages/2?w=${PREVIEW_WIDTH}`, { cookie: teacher.cookie })).status).toBe(200);
    expect(await spent()).toBe(1);
    expect(await read()).toBe(0);
    expect((await api(`/api/books/${bookId}/pages/2?w=1024`, { cookie: teacher.cookie })).status).toBe(200);
    expect(await spent()).toBe(2);
    expect(await read()).toBe(1);
  });
});

describe("downscalePixels", () => {
  const rgb = (values: number[][]) => Uint8Array.from(values.flat());

  it("averages the area each output pixel covers", () => {
    // 4 x 2 RGB -> 2 x 1: each output pixel is the mean of a 2 x 2 block.
    const pixels = rgb([
      [0, 0, 0],
      [255, 255, 255],
      [200, 100, 0],
      [200, 100, 0],
      [255, 255, 255],
      [0, 0, 0],
      [0, 100, 200],
      [0, 100, 200],
    ]);
    const out = downscalePixels({ width: 4, height: 2, channels: 3, pixels }, 2);
    expect(out).toMatchObject({ width: 2, height: 1, channels: 3 });
    expect([...out.pixels]).toEqual([128, 128, 128, 100, 100, 100]);
  });

  it("keeps a flat colour flat at an uneven ratio, and opaque RGBA opaque", () => {
    const width = 1024;
    const height = 300;
    const pixels = new Uint8Array(width * height * 4);
    for (let i = 0; i < pixels.length; i += 4) pixels.set([20, 60, 140, 255], i);
    const out = downscalePixels({ width, height, channels: 4, pixels }, 640);
    expect(out).toMatchObject({ width: 640, height: 188 });
    const distinct = new Set<string>();
    for (let i = 0; i < out.pixels.length; i += 4) distinct.add(out.pixels.subarray(i, i + 4).join(","));
    expect([...distinct]).toEqual(["20,60,140,255"]);
  });

  it("leaves a page no wider than asked as it is", () => {
    const page = { width: 10, height: 5, channels: 3 as const, pixels: new Uint8Array(150) };
    expect(downscalePixels(page, 10)).toBe(page);
    expect(downscalePixels(page, 20)).toBe(page);
  });
});
