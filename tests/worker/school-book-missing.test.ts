import { beforeAll, describe, expect, it } from "vitest";
import { client, createBook, createSchool, okBody, page, signedInTeacher } from "./helpers.ts";

// An id that is no book at all says 'Book not found'; a book of the catalogue that the school was not
// given says 'This book is not available for your school' (the spec has both texts) on the API and
// /books/{id}; the dashboard's book page says 'Book Not Found' for both, as the spec has it there.
let slug: string;
let cookie: string;
let assigned: number;
let unassigned: number;
let noSuchBook: number;

beforeAll(async () => {
  const school = await createSchool();
  slug = school.slug;
  cookie = (await signedInTeacher(school)).cookie;
  assigned = (await createBook({ title: "On Our Shelf" }, [school.id])).id;
  unassigned = (await createBook({ title: "On Another School's Shelf" }, [(await createSchool()).id])).id;
  noSuchBook = unassigned + 100_000;
});

describe("a book a teacher cannot open: no such book, or not the school's", () => {
  it("GET /api/schools/slug/{slug}/books/{id} answers 'Book not found' for an id that is no book", async () => {
    const response = await client({ cookie }).api.schools.slug[":slug"].books[":bookId"].$get({
      param: { slug, bookId: String(noSuchBook) },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Book not found" });
  });

  it("GET /api/schools/slug/{slug}/books/{id} answers 'This book is not available for your school' for another school's book", async () => {
    const response = await client({ cookie }).api.schools.slug[":slug"].books[":bookId"].$get({
      param: { slug, bookId: String(unassigned) },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "This book is not available for your school" });
    const own = client({ cookie }).api.schools.slug[":slug"].books[":bookId"].$get({ param: { slug, bookId: String(assigned) } });
    expect((await okBody(own)).book.title).toBe("On Our Shelf");
  });

  it("/schools/{slug}/books/{id} says which", async () => {
    const missing = await page(`/schools/${slug}/books/${noSuchBook}`, { cookie });
    expect(missing.status).toBe(404);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain("Book not found");
    expect(missingHtml).not.toContain("This book is not available for your school");

    const elsewhere = await page(`/schools/${slug}/books/${unassigned}`, { cookie });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).toContain("This book is not available for your school");
  });

  it("/schools/{slug}/dashboard/book/{id} says 'Book Not Found - The requested book could not be found.' for both", async () => {
    for (const id of [noSuchBook, unassigned]) {
      const response = await page(`/schools/${slug}/dashboard/book/${id}`, { cookie });
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain("Book Not Found");
      expect(html).toContain("The requested book could not be found.");
      expect(html).not.toContain("This book is not available for your school");

      // The loader's data (a client-side visit) does not tell the two apart either.
      const data = await (await page(`/schools/${slug}/dashboard/book/${id}.data`, { cookie })).text();
      expect(data).toContain("not-found");
      expect(data).not.toContain("not-available");
    }
  });
});
