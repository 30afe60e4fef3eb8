// A teacher's bookmarks, highlights and notes (issue #29 item 1, docs/decisions/0032), through the
// whole Worker as a script would send them: validation, strict ids, a page out of range, another
// school's book and another teacher's annotation, the per-book limit, and the budget: a highlight's
// text read back costs pages, and the export carries at most 200 characters of each.

import type { InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import { pageBudget } from "../../workers/reading/page-budget.ts";
import { MAX_ANNOTATIONS_PER_BOOK } from "../../workers/school-object/annotations.ts";
import {
  api,
  client,
  createSchool,
  errorOf,
  okBody,
  pagesSpent,
  schoolStub,
  setPagesSpent,
  signedInAdmin,
  signedInTeacher,
} from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const LONG = `${"Photosynthesis turns light into sugar. ".repeat(30)}The end.`;
const TEXTS = ["Chapter one: the leaf and the light it drinks.", LONG, "Index."];

let school: Awaited<ReturnType<typeof createSchool>>;
let bookId: number;

beforeAll(async () => {
  school = await createSchool({ name: "Annotation Academy" });
  bookId = (await preparedBook("Leaves and Light", [school.id], TEXTS)).book.id;
});

const url = (path = "", book: number = bookId) => `/api/books/${book}/annotations${path}`;
/** A book's annotations as `cookie` (and `origin`) reach them, typed. */
const annotations = (cookie: string, origin?: string) => client({ cookie, origin }).api.books[":id"].annotations;
type CreateBody = InferRequestType<ReturnType<typeof annotations>["$post"]>["json"];
type PatchBody = InferRequestType<ReturnType<typeof annotations>[":annotationId"]["$patch"]>["json"];
const ofBook = (book: number = bookId) => ({ param: { id: String(book) } });
const create = (cookie: string, json: CreateBody, book: number = bookId) => annotations(cookie).$post({ ...ofBook(book), json });
const list = (cookie: string, book: number = bookId) => annotations(cookie).$get(ofBook(book));
const exportOf = (cookie: string, book: number = bookId) => annotations(cookie).export.$get(ofBook(book));
const one = (id: number | string, book: number = bookId) => ({ param: { id: String(book), annotationId: String(id) } });
const remove = (cookie: string, id: number | string, book: number = bookId) => annotations(cookie)[":annotationId"].$delete(one(id, book));

describe("creating annotations", () => {
  it("keeps a bookmark, a highlight with its text read from the page, and a note, listed in page order", async () => {
    const { cookie } = await signedInTeacher(school, "Hana Highlighter");
    const note = await create(cookie, { kind: "note", page: 3, note: "  Check the index\nbefore class.  " });
    expect(note.status).toBe(201);
    expect((await okBody(note)).annotation).toMatchObject({ kind: "note", page: 3, note: "Check the index\nbefore class." });

    const highlight = await create(cookie, {
      kind: "highlight",
      page: 1,
      colour: "green",
      start: { run: 0, offset: 13 },
      end: { run: 0, offset: 21 },
      note: "Vocabulary",
    });
    expect(highlight.status).toBe(201);
    expect((await okBody(highlight)).annotation).toMatchObject({
      kind: "highlight",
      colour: "green",
      text: "the leaf",
      note: "Vocabulary",
    });

    const bookmark = await create(cookie, { kind: "bookmark", page: 2, label: "Lesson 3" });
    expect((await okBody(bookmark)).annotation).toMatchObject({ kind: "bookmark", page: 2, label: "Lesson 3" });

    const listed = await okBody(list(cookie));
    expect(listed.annotations.map((a) => [a.page, a.kind])).toEqual([
      [1, "highlight"],
      [2, "bookmark"],
      [3, "note"],
    ]);
    expect(listed.textWithheld).toBeUndefined();
  });

  it("refuses bad input with a clear 400, and never takes the highlight's text from the request", async () => {
    const { cookie } = await signedInTeacher(school);
    const cases: [unknown, string][] = [
      [{ kind: "sticker", page: 1 }, 'The kind must be "bookmark", "highlight" or "note"'],
      [{ kind: "note", page: 1, note: "" }, "Write the note, or delete it."],
      [{ kind: "note", page: 1, note: "x".repeat(2_001) }, "A note can have at most 2,000 characters"],
      [{ kind: "note", page: 0, note: "x" }, "The page must be a whole number from 1"],
      [{ kind: "note", page: 1.5, note: "x" }, "The page must be a whole number from 1"],
      [{ kind: "note", page: "2", note: "x" }, "The page must be a whole number from 1"],
      [{ kind: "note", page: 4, note: "x" }, "This book has 3 pages"],
      [{ kind: "bookmark", page: 1, label: "x".repeat(101) }, "A bookmark's label can have at most 100 characters"],
      [{ kind: "bookmark", page: 1, colour: "red" }, 'Unrecognized key: "colour"'],
      [
        { kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 5 }, colour: "red" },
        "The colour must be yellow, green, blue or pink",
      ],
      [
        { kind: "highlight", page: 1, start: { run: 0, offset: 5 }, end: { run: 0, offset: 5 } },
        "The highlight's start and end are not text of this page.",
      ],
      [
        { kind: "highlight", page: 1, start: { run: 1, offset: 0 }, end: { run: 1, offset: 5 } },
        "The highlight's start and end are not text of this page.",
      ],
      [
        { kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 500 } },
        "The highlight's start and end are not text of this page.",
      ],
      [
        { kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 5 }, text: "anything I like" },
        'Unrecognized key: "text"',
      ],
      [
        { kind: "highlight", page: 2, start: { run: 0, offset: 0 }, end: { run: 0, offset: LONG.length } },
        "A highlight can cover at most 1,000 characters. Select less text.",
      ],
    ];
    for (const [body, error] of cases) {
      // Bodies of the wrong shape (an unknown kind, a page as text, keys a kind has not), which the typed client would not send: raw.
      const response = await api(url(), { body, cookie });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response), JSON.stringify(body)).toBe(error);
    }
    // A JSON Content-Type with no body at all: raw.
    const notJson = await api(url(), { method: "POST", cookie, headers: { "Content-Type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect((await okBody(list(cookie))).annotations).toEqual([]);
  });

  it("keeps at most MAX_ANNOTATIONS_PER_BOOK in one book (409)", async () => {
    const { cookie, teacher } = await signedInTeacher(school);
    const stub = await schoolStub(school.id);
    const { runInDurableObject } = await import("cloudflare:test");
    await runInDurableObject(stub, (_instance, state) => {
      for (let i = 0; i < MAX_ANNOTATIONS_PER_BOOK; i++)
        state.storage.sql.exec(
          "INSERT INTO annotations (teacher_id, book_id, kind, page, created_at, updated_at) VALUES (?, ?, 'bookmark', 1, 0, 0)",
          teacher.id,
          bookId,
        );
    });
    const full = await create(cookie, { kind: "bookmark", page: 1 });
    expect(full.status).toBe(409);
    expect(await errorOf(full)).toMatch(/at most 1,000 bookmarks, highlights and notes/);
  });
});

describe("whose annotations", () => {
  it("another teacher's annotation is 404 to read, change or delete, and is not listed", async () => {
    const owner = await signedInTeacher(school, "Olive Owner");
    const other = await signedInTeacher(school, "Oscar Other");
    const { annotation } = await okBody(create(owner.cookie, { kind: "note", page: 1, note: "Mine" }));
    expect((await okBody(list(other.cookie))).annotations).toEqual([]);
    const patch = await annotations(other.cookie)[":annotationId"].$patch({ ...one(annotation.id), json: { note: "Theirs" } });
    expect(patch.status).toBe(404);
    expect(await errorOf(patch)).toBe("Annotation not found");
    expect((await remove(other.cookie, annotation.id)).status).toBe(404);
    const mine = await okBody(list(owner.cookie));
    expect(mine.annotations).toMatchObject([{ id: annotation.id, note: "Mine" }]);
  });

  it("another school's book is 404, as the reader answers it; so is a malformed id; no one is 401", async () => {
    const elsewhere = await createSchool({ name: "Elsewhere High" });
    const theirs = (await preparedBook("Not Yours", [elsewhere.id], ["Secret."])).book.id;
    const { cookie } = await signedInTeacher(school);
    for (const response of [
      await list(cookie, theirs),
      await create(cookie, { kind: "note", page: 1, note: "x" }, theirs),
      await remove(cookie, 1, theirs),
      await exportOf(cookie, theirs),
    ]) {
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toBe("Book not found");
    }
    // Malformed ids written into the path as they stand: raw.
    for (const id of ["0", "-1", "1.0", "1e3", "0x1", "%201"]) {
      expect((await api(url(`/${id}`), { method: "DELETE", cookie })).status, id).toBe(404);
      expect((await api(`/api/books/${id}/annotations`, { cookie })).status, id).toBe(404);
    }
    expect((await list("")).status).toBe(401);
    expect((await create("", { kind: "note", page: 1, note: "x" })).status).toBe(401);
    // Another site's page cannot write with the teacher's cookie.
    const forged = await annotations(cookie, "https://evil.test").$post({ ...ofBook(), json: { kind: "note", page: 1, note: "x" } });
    expect(forged.status).toBe(403);
  });
});

describe("editing and deleting", () => {
  it("changes what each kind has, refuses what it has not, and deletes", async () => {
    const { cookie } = await signedInTeacher(school);
    const note = (await okBody(create(cookie, { kind: "note", page: 1, note: "Draft" }))).annotation;
    const highlight = (
      await okBody(create(cookie, { kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 7 } }))
    ).annotation;
    expect(highlight).toMatchObject({ colour: "yellow", text: "Chapter" });
    const bookmark = (await okBody(create(cookie, { kind: "bookmark", page: 2 }))).annotation;

    const patch = (id: number, json: PatchBody) => annotations(cookie)[":annotationId"].$patch({ ...one(id), json });
    expect((await okBody(patch(note.id, { note: "Final" }))).annotation.note).toBe("Final");
    expect((await okBody(patch(highlight.id, { colour: "pink", note: "Key word" }))).annotation).toMatchObject({
      colour: "pink",
      note: "Key word",
      start: { run: 0, offset: 0 },
    });
    expect((await okBody(patch(highlight.id, { note: null }))).annotation.note).toBeNull();
    expect((await okBody(patch(bookmark.id, { label: "Start here" }))).annotation.label).toBe("Start here");

    expect(await errorOf(patch(bookmark.id, { note: "x" }))).toBe("A bookmark has no note to change.");
    expect(await errorOf(patch(note.id, { colour: "blue" }))).toBe("A note has no colour to change.");
    expect(await errorOf(patch(note.id, { note: null }))).toBe("Write the note, or delete it.");
    expect(await errorOf(patch(note.id, {}))).toBe("Send the label, note or colour to change");
    // A key no annotation has, which the typed client would not send: raw.
    expect(await errorOf(api(url(`/${note.id}`), { method: "PATCH", body: { page: 2 }, cookie }))).toBe('Unrecognized key: "page"');

    expect((await remove(cookie, note.id)).status).toBe(204);
    expect((await remove(cookie, note.id)).status).toBe(404);
    const left = await okBody(list(cookie));
    expect(left.annotations.map((a) => a.id)).toEqual([highlight.id, bookmark.id]);
  });
});

describe("the budget", () => {
  it("reading highlights back costs one page per highlighted page; at the limit the text is withheld, the rest listed", async () => {
    const { cookie, teacher } = await signedInTeacher(school);
    const spentBefore = await pagesSpent(school, teacher.id, bookId);
    for (const [page, end] of [
      [1, 7],
      [1, 11],
      [2, 14],
    ] as const)
      expect((await create(cookie, { kind: "highlight", page, start: { run: 0, offset: 0 }, end: { run: 0, offset: end } })).status).toBe(
        201,
      );
    // Each highlight made reads its text back once.
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(spentBefore + 3);
    await create(cookie, { kind: "note", page: 3, note: "Free" });
    await list(cookie);
    // Two highlighted pages: two pages of the budget.
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(spentBefore + 5);

    const limit = pageBudget(TEXTS.length).hour.limit;
    await setPagesSpent(school, teacher.id, bookId, "h", limit - 1);
    const listed = await okBody(list(cookie));
    expect(listed.textWithheld).toMatch(/^You have reached the reading limit for this book/);
    expect(listed.annotations).toHaveLength(4);
    expect(listed.annotations.every((a) => a.text === null)).toBe(true);
    // A refusal costs nothing.
    expect(await pagesSpent(school, teacher.id, bookId)).toBe(limit - 1);
    // At the limit, a new highlight is refused (its answer would carry text); a note is not.
    await setPagesSpent(school, teacher.id, bookId, "h", limit);
    const refused = await create(cookie, { kind: "highlight", page: 3, start: { run: 0, offset: 0 }, end: { run: 0, offset: 5 } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await create(cookie, { kind: "note", page: 3, note: "Still fine" })).status).toBe(201);
  });

  it("exports the teacher's notes as Markdown with at most 200 characters of a highlight", async () => {
    const { cookie } = await signedInTeacher(school, "Edie Exporter");
    await create(cookie, { kind: "highlight", page: 2, start: { run: 0, offset: 0 }, end: { run: 0, offset: 600 }, note: "Long one" });
    await create(cookie, { kind: "bookmark", page: 1, label: "Start" });
    await create(cookie, { kind: "note", page: 3, note: "Line one\nLine two" });
    const response = await exportOf(cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="lectern-notes-leaves-and-light.md"');
    const markdown = await response.text();
    expect(markdown).toContain("# Leaves and Light: my notes");
    expect(markdown).toContain("## Page 1\n\n- Bookmark: Start");
    expect(markdown).toContain("- Note: Line one\n  Line two");
    const quoted = /- Highlight \(yellow\): “([^”]*)”/.exec(markdown)?.[1] ?? "";
    expect(quoted.length).toBeLessThanOrEqual(200);
    expect(quoted.startsWith("Photosynthesis turns light")).toBe(true);
    expect(markdown).toContain("  Note: Long one");
    expect(markdown).not.toContain(LONG.slice(0, 400));
  });
});

describe("seats (a licence's seat limit, docs/decisions/0028)", () => {
  const pageOne = (who: { cookie: string }, book: number) =>
    client(who).api.books[":id"].pages[":n"].$get({ param: { id: String(book), n: "1" } });
  const releaseSeat = (who: { cookie: string }, book: number) => client(who).api.books[":id"].seat.$delete({ param: { id: String(book) } });

  /** A 2-seat book of three pages, both seats held by two teachers, and a third teacher refused a page. */
  async function fullBook() {
    const admin = await signedInAdmin();
    const seated = await createSchool({ name: "Seated School", teacherLimit: 10 });
    const { book } = await preparedBook(`Two Seats ${crypto.randomUUID()}`, [], TEXTS);
    const licence = await client(admin).api.licences.$post({
      json: { schoolId: seated.id, bookId: book.id, startsOn: "2026-01-01", seats: 2 },
    });
    expect(licence.status).toBe(201);
    const [first, second, third] = [
      await signedInTeacher(seated, "First"),
      await signedInTeacher(seated, "Second"),
      await signedInTeacher(seated, "Third"),
    ];
    expect((await pageOne(first, book.id)).status).toBe(200);
    expect((await pageOne(second, book.id)).status).toBe(200);
    expect((await client(third).api.books[":id"].pages[":n"].text.$get({ param: { id: String(book.id), n: "1" } })).status).toBe(409);
    return { seated, book, first, second, third };
  }

  it("a teacher refused a seat cannot read the book through highlights: made, listed or exported", async () => {
    const { seated, book, first, third } = await fullBook();
    const highlight = { kind: "highlight", page: 2, start: { run: 0, offset: 0 }, end: { run: 0, offset: 900 } } as const;
    const made = await create(third.cookie, highlight, book.id);
    expect(made.status).toBe(409);
    expect(await made.json()).toEqual({
      error: "All 2 copies of this book are in use at your school. Try again in a few minutes.",
      status: "no-seat",
    });
    expect(made.headers.get("Retry-After")).toBe("60");
    // Refused as a page is: nothing spent, nothing kept.
    expect(await pagesSpent(seated, third.teacher.id, book.id)).toBe(0);
    // A note or a bookmark carries no words of the book: no seat needed.
    expect((await create(third.cookie, { kind: "note", page: 2, note: "Ask for a copy" }, book.id)).status).toBe(201);

    // A highlight made while holding a seat is read back only with one.
    await releaseSeat(first, book.id);
    expect((await create(third.cookie, highlight, book.id)).status).toBe(201);
    await releaseSeat(third, book.id);
    expect((await pageOne(first, book.id)).status).toBe(200);
    const spent = await pagesSpent(seated, third.teacher.id, book.id);
    const listed = await okBody(list(third.cookie, book.id));
    expect(listed.annotations.map((a) => [a.kind, a.text])).toEqual([
      ["note", null],
      ["highlight", null],
    ]);
    expect(listed.textWithheld).toBe("All 2 copies of this book are in use at your school. Try again in a few minutes.");
    const exported = await (await exportOf(third.cookie, book.id)).text();
    expect(exported).not.toContain("Photosynthesis");
    expect(exported).toContain("(the highlighted text is left out: every copy of this book is in use at your school)");
    // Withheld for want of a seat costs nothing, and took no seat.
    expect(await pagesSpent(seated, third.teacher.id, book.id)).toBe(spent);
    expect(await (await schoolStub(seated.id)).seatsHeld(seated.id, book.id)).toBe(2);
  });

  it("listing highlights takes a free seat as a page does, so the next teacher is refused", async () => {
    const { book, first, second, third } = await fullBook();
    await releaseSeat(first, book.id);
    expect(
      (await create(first.cookie, { kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 7 } }, book.id))
        .status,
    ).toBe(201);
    await releaseSeat(first, book.id);
    const listed = await okBody(list(first.cookie, book.id));
    expect(listed.annotations.map((a) => a.text)).toEqual(["Chapter"]);
    // First holds a seat again (from the list), Second holds theirs: Third is refused.
    expect((await pageOne(third, book.id)).status).toBe(409);
    expect((await pageOne(second, book.id)).status).toBe(200);
  });

  it("changing a highlight answers without its words, even with the hour's budget spent", async () => {
    const { cookie, teacher } = await signedInTeacher(school);
    const { annotation } = await okBody(
      create(cookie, { kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 7 } }),
    );
    await setPagesSpent(school, teacher.id, bookId, "h", pageBudget(TEXTS.length).hour.limit);
    for (const colour of ["blue", "pink"] as const) {
      const changed = await annotations(cookie)[":annotationId"].$patch({ ...one(annotation.id), json: { colour } });
      expect(changed.status).toBe(200);
      const body = await okBody(changed);
      expect(body.annotation).toMatchObject({ id: annotation.id, colour, kind: "highlight" });
      expect(body.annotation).not.toHaveProperty("text");
    }
  });
});
