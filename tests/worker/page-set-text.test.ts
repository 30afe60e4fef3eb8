import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { books } from "../../workers/db/schema.ts";
import { createUploadedPageSet } from "../../workers/page-images/page-sets.ts";
import { CLEANED_TEXT_RUN, CONTROL_TEXT_RUN, controlTextPdf } from "../support/control-text-pdf.ts";
import { client, createBook, createSchool, db, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { PAGE, pageImages, putPage } from "./page-fixtures.ts";

// A PDF's text layer is not anyone's input: a fuzzed PDF's NUL and ESC are cleaned out on arrival,
// never a reason to refuse its pages (the set would never complete and teachers would see 'Almost
// ready' for ever). docs/decisions/0036.

describe("a page set whose text holds control characters", () => {
  it("is taken, its text cleaned (every script kept), and teachers read and search the book", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: `Fuzzed ${crypto.randomUUID()}` }, [school.id], { pdf: false });
    // The PDF pdf.js reads CONTROL_TEXT_RUN from (tests/node/pdfium-pages.test.ts shows PDFium reads it too).
    const pdf = await controlTextPdf();
    const pdfKey = `books/${book.id}/fuzzed.pdf`;
    await env.BOOKS.put(pdfKey, pdf);
    const [row] = await db().select().from(books).where(eq(books.id, book.id));
    const set = await createUploadedPageSet(db(), env.BOOKS, row!, { key: pdfKey, size: pdf.byteLength, pageCount: 2 });

    // What a renderer without the cleaning (an admin's browser on an older page) sends, as pdf.js read it.
    const runs = [
      { str: CONTROL_TEXT_RUN, x: 20, y: 66, w: 200, h: 14 },
      { str: "\u0007Ελληνικά\u007f\u0085", x: 20, y: 90, w: 80, h: 14 },
    ];
    const page1 = await putPage(cookie, book.id, set.id, 1, pageImages(), { ...PAGE, runs });
    expect(page1.status, await page1.clone().text()).toBe(200);
    const pageSet = client({ cookie }).api.books[":id"]["page-sets"][":setId"];
    const param = { id: String(book.id), setId: String(set.id) };
    const failure = await pageSet.pages[":n"].failure.$put({
      param: { ...param, n: "2" },
      json: { width: 612, height: 792, error: "Invalid font\u0000 glyph" },
    });
    expect(failure.status, await failure.clone().text()).toBe(200);
    const done = await pageSet.complete.$post({
      param,
      json: { text: [`${CONTROL_TEXT_RUN}\nΕλληνικά\u0000`, ""], outline: [{ title: "Chapter\u0000 1\u001b", page: 1, items: [] }] },
    });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.json()).toEqual({ pageCount: 2, failed: [2] });

    const teacher = await signedInTeacher(school);
    const id = String(book.id);
    const text = await okBody(client(teacher).api.books[":id"].pages[":n"].text.$get({ param: { id, n: "1" } }));
    expect(text.runs.map((run) => run.str)).toEqual([CLEANED_TEXT_RUN, "Ελληνικά"]);
    const outline = await okBody(client(teacher).api.books[":id"].outline.$get({ param: { id } }));
    expect(outline.outline).toEqual([{ title: "Chapter 1", page: 1, items: [] }]);
    for (const q of ["Cellwall", "日", "Ελληνικά"]) {
      const found = await okBody(client(teacher).api.books[":id"].search.$get({ param: { id }, query: { q } }));
      expect(found.total, q).toBe(1);
    }
  });

  it("still refuses control characters where a person types (a book's title)", async () => {
    const { cookie } = await signedInAdmin();
    const book = await createBook({ title: `Typed ${crypto.randomUUID()}` });
    const edited = await client({ cookie }).api.books[":id"].$put({ param: { id: String(book.id) }, json: { title: "Bad\u0000title" } });
    expect(edited.status).toBe(400);
    expect(await edited.json()).toMatchObject({ error: "Remove the control characters (such as NUL) from this text" });
  });
});
