import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOf, formatDay } from "#shared/rules/licence.ts";
import { bookAccess } from "../../workers/db/schema.ts";
import { api, createSchool, db, page, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

// A book whose licence ended is said so, with the day it ended and whom to ask, on every route a
// teacher may take to it (docs/decisions/0028), and never answered as a book that is not there.
let slug: string;
let cookie: string;
let bookId: number;
let ended: string;

beforeAll(async () => {
  const school = await createSchool({ email: "library@ended.example" });
  slug = school.slug;
  cookie = (await signedInTeacher(school)).cookie;
  bookId = (await preparedBook(`Ended ${crypto.randomUUID()}`, [school.id], ["One.", "Two."])).book.id;
  const today = dayOf(Date.now());
  await db()
    .update(bookAccess)
    .set({ startsOn: addDays(today, -30), endsOn: addDays(today, -1) })
    .where(and(eq(bookAccess.schoolId, school.id), eq(bookAccess.bookId, bookId)));
  ended = `Your school's licence for this book ended on ${formatDay(addDays(today, -1))}.`;
});

describe("a book whose licence ended", () => {
  it("the reader says so with 403, the day it ended and the school's address, on the path and on the subdomain", async () => {
    for (const url of [
      `https://lectern.test/schools/${slug}/dashboard/book/${bookId}/view`,
      `https://${slug}.lectern.test/dashboard/book/${bookId}/view`,
    ]) {
      const response = await page(url, { cookie });
      expect(response.status, url).toBe(403);
      const html = await response.text();
      expect(html).toContain("This book is no longer available");
      expect(html).toContain(ended.replace("'", "&#x27;"));
      expect(html).toContain('href="mailto:library@ended.example"');
      expect(html).not.toContain("Failed to load book details");
    }
    // A visit from the dashboard (the loader's data) says the same.
    const data = await page(`/schools/${slug}/dashboard/book/${bookId}/view.data`, { cookie });
    const text = await data.text();
    expect(text).toContain("licence-ended");
    expect(text).toContain(ended);
  });

  it("the book's pages say so with 403", async () => {
    for (const path of [`/schools/${slug}/dashboard/book/${bookId}`, `/schools/${slug}/books/${bookId}`]) {
      const response = await page(path, { cookie });
      expect(response.status, path).toBe(403);
      expect(await response.text()).toContain("This book is no longer available");
    }
  });

  it("every reading call of the API says so with 403", async () => {
    for (const path of [
      `/api/schools/slug/${slug}/books/${bookId}`,
      `/api/books/${bookId}/pages`,
      `/api/books/${bookId}/pages/1`,
      `/api/books/${bookId}/pages/1/text`,
      `/api/books/${bookId}/outline`,
      `/api/books/${bookId}/search?q=one`,
    ]) {
      // A table of reading routes walked by path: raw calls.
      const response = await api(path, { cookie });
      expect(response.status, path).toBe(403);
      expect(await response.json(), path).toEqual({ error: ended, status: "licence-ended" });
    }
  });
});
