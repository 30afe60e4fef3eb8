// One rule for a licence's terms (issue 41 item 6, docs/decisions/0028): its last day is not before
// its first, whoever writes it. Each writer is tried as a script or a form would: the assign call
// (/api/books/access) with only a past end (it used to store "today to 2020-01-01"), the licences
// API's create and change, the CSV import, the console's three assign forms, and the bulk "end now".
// Every refusal says the same sentence, on `endsOn`, and stores nothing.

import { eq } from "drizzle-orm";
import type { ClientResponse, InferRequestType } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "#shared/rules/licence.ts";
import { bookAccess } from "../../workers/db/schema.ts";
import { END_BEFORE_START } from "../../workers/licences/input.ts";
import { today } from "./fixtures-suite.ts";
import { client, createBook, createSchool, db, errorBody, licenceOf, okBody, page, signedInAdmin } from "./helpers.ts";

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  admin = await signedInAdmin();
});

const PAST_END = "2020-01-01";
const unique = () => crypto.randomUUID().slice(0, 8);
const licencesOf = (schoolId: number) => db().select().from(bookAccess).where(eq(bookAccess.schoolId, schoolId));

/** The admin's typed client. */
const asAdmin = () => client({ cookie: admin.cookie }).api;
type AssignBody = InferRequestType<ReturnType<typeof asAdmin>["books"]["access"]["$post"]>["json"];
type LicenceBody = InferRequestType<ReturnType<typeof asAdmin>["licences"]["$post"]>["json"];
const assign = (json: AssignBody) => asAdmin().books.access.$post({ json });
const createLicence = (json: LicenceBody) => asAdmin().licences.$post({ json });

/** A 400 that names `endsOn` (or the list's item's) with the one sentence. */
async function expectEndBeforeStart(response: ClientResponse<unknown, number, string>, what: string, field = "endsOn") {
  expect(response.status, what).toBe(400);
  expect(await errorBody(response), what).toMatchObject({ error: END_BEFORE_START, field });
}

describe("the assign call and the licences API refuse the same terms", () => {
  it("POST /api/books/access with only a past end: 400 on endsOn, nothing stored (it stored today to 2020-01-01)", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Past End ${unique()}` });
    const body = { schoolIds: [school.id], bookIds: [book.id], endsOn: PAST_END };
    await expectEndBeforeStart(await assign(body), "assign, only a past end");
    expect(await licenceOf(school.id, book.id)).toBeUndefined();

    // The same terms written out (starting today) are refused the same way, by every writer.
    const terms = { startsOn: today(), endsOn: PAST_END };
    await expectEndBeforeStart(await assign({ ...body, ...terms }), "assign, both days");
    await expectEndBeforeStart(await createLicence({ schoolId: school.id, bookId: book.id, ...terms }), "POST /api/licences");
    await expectEndBeforeStart(
      await createLicence({ licences: [{ schoolId: school.id, bookId: book.id, ...terms }] }),
      "POST /api/licences, many",
      "licences.0.endsOn",
    );
    expect(await licenceOf(school.id, book.id)).toBeUndefined();

    // A past end with an earlier start is a licence that has ended: allowed, as /api/licences allows it.
    const ended = await assign({ ...body, startsOn: "2019-08-01" });
    expect(ended.status).toBe(200);
    expect(await licenceOf(school.id, book.id)).toMatchObject({ startsOn: "2019-08-01", endsOn: PAST_END });
  });

  it("PATCH /api/licences/:id refuses a change that would end it before it starts, either day alone", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Patched ${unique()}` });
    const made = await createLicence({ schoolId: school.id, bookId: book.id, startsOn: today(), endsOn: addDays(today(), 30) });
    expect(made.status).toBe(201);
    const { id } = (await licenceOf(school.id, book.id))!;
    const patch = (json: InferRequestType<ReturnType<typeof asAdmin>["licences"][":id"]["$patch"]>["json"]) =>
      asAdmin().licences[":id"].$patch({ param: { id: String(id) }, json });
    await expectEndBeforeStart(await patch({ endsOn: PAST_END }), "an end alone");
    await expectEndBeforeStart(await patch({ startsOn: addDays(today(), 31) }), "a start alone");
    expect(await licenceOf(school.id, book.id)).toMatchObject({ startsOn: today(), endsOn: addDays(today(), 30) });
  });
});

describe("the console's assign forms", () => {
  const form = (fields: [string, string][]) => new URLSearchParams(fields);

  it("a school's Assign Books, the Assign Book page and a book's page refuse a past end alone, with the sentence", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Form Past End ${unique()}` });
    const posts: [string, [string, string][]][] = [
      [`/admin/assign-books/${school.id}`, [["bookId", String(book.id)]]],
      [
        "/admin/assign-book",
        [
          ["intent", "assign"],
          ["bookId", String(book.id)],
          ["schoolIds", String(school.id)],
        ],
      ],
      [
        `/admin/book/${book.id}`,
        [
          ["intent", "assign"],
          ["schoolIds", String(school.id)],
        ],
      ],
    ];
    for (const [url, fields] of posts) {
      for (const terms of [
        [["endsOn", PAST_END]],
        [
          ["startsOn", today()],
          ["endsOn", PAST_END],
          ["seats", ""],
        ],
      ] as [string, string][][]) {
        const posted = await page(url, { method: "POST", cookie: admin.cookie, body: form([...fields, ...terms]) });
        expect(posted.status, `${url} ${JSON.stringify(terms)}`).toBe(400);
        expect(await posted.text()).toContain(END_BEFORE_START);
      }
    }
    expect(await licencesOf(school.id)).toEqual([]);
  });
});

describe("the CSV import", () => {
  it("refuses a row, new or changing a licence, that ends before it starts, with the same sentence", async () => {
    const school = await createSchool();
    const [fresh, held] = [await createBook({ title: `Import New ${unique()}` }), await createBook({ title: `Import Held ${unique()}` })];
    const made = await createLicence({ schoolId: school.id, bookId: held.id, startsOn: today() });
    expect(made.status).toBe(201);
    const rows = [
      { slug: school.slug, bookId: String(fresh.id), startsOn: today(), endsOn: PAST_END },
      { slug: school.slug, bookId: String(held.id), startsOn: today(), endsOn: PAST_END },
    ];
    const checked = await okBody(asAdmin().licences.import.validate.$post({ json: { rows } }));
    expect(checked.rows.map((row) => [row.status, row.errors])).toEqual([
      ["invalid", [`endsOn: ${END_BEFORE_START}`]],
      ["invalid", [`endsOn: ${END_BEFORE_START}`]],
    ]);
    const imported = await asAdmin().licences.import.$post({ json: { rows } });
    expect(imported.status).toBe(400);
    expect(await licenceOf(school.id, fresh.id)).toBeUndefined();
    expect(await licenceOf(school.id, held.id)).toMatchObject({ startsOn: today(), endsOn: null });
  });
});

describe("the Licences page's bulk change", () => {
  it("'end now' on a licence that has not begun ends it on a day not before its first", async () => {
    const school = await createSchool();
    const book = await createBook({ title: `Not Begun ${unique()}` });
    const made = await createLicence({
      schoolId: school.id,
      bookId: book.id,
      startsOn: addDays(today(), 10),
      endsOn: addDays(today(), 40),
    });
    expect(made.status).toBe(201);
    const { id } = (await licenceOf(school.id, book.id))!;
    const ended = await page("/admin/licences", {
      method: "POST",
      cookie: admin.cookie,
      body: new URLSearchParams([
        ["intent", "end"],
        ["id", String(id)],
      ]),
    });
    expect(ended.status).toBe(200);
    const after = (await licenceOf(school.id, book.id))!;
    expect(after.endsOn).toBe(addDays(today(), -1));
    expect(after.endsOn! >= after.startsOn).toBe(true);
  });
});
