import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createUploadedPageSet } from "../../workers/page-images/page-sets.ts";
import { createBook, createSchool, db, errorBody, ORIGIN, page, request, schoolFields, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

// A JSON body is UTF-8 text (RFC 8259): one whose bytes are not is refused with 400 before any
// route reads it, never stored with U+FFFD where the bytes were (docs/decisions/0036).

const NOT_UTF8 = "The request's body is not valid UTF-8 text. Send JSON encoded as UTF-8.";

/** `json` as UTF-8 with the marker `@@` replaced by bytes no UTF-8 text holds (a lone 0xFF, a cut-off 0xC3). */
function withBadBytes(json: string): Uint8Array<ArrayBuffer> {
  const [before, after] = json.split("@@") as [string, string];
  const encode = (text: string) => new TextEncoder().encode(text);
  return new Uint8Array([...encode(before), 0xff, 0x41, 0xc3, ...encode(after)]);
}

function send(path: string, body: Uint8Array<ArrayBuffer>, cookie: string, type: string | null = "application/json", method = "POST") {
  const headers = new Headers({ Cookie: cookie, Origin: ORIGIN });
  if (type) headers.set("Content-Type", type);
  return request(`${ORIGIN}${path}`, { method, headers, body });
}

const schoolsNamed = async (prefix: string) =>
  (await env.DB.prepare("SELECT name FROM schools WHERE name LIKE ?").bind(`${prefix}%`).all<{ name: string }>()).results;

describe("a JSON body that is not UTF-8", () => {
  it("POST /api/schools/bulk: 400, saying so, and no school stored", async () => {
    const { cookie } = await signedInAdmin();
    const prefix = `Encoding ${crypto.randomUUID().slice(0, 8)}`;
    const row = {
      ...schoolFields(prefix, "office@encoding.example"),
      schoolName: `${prefix} @@`,
      slug: `enc-${crypto.randomUUID().slice(0, 8)}`,
    };
    const body = withBadBytes(JSON.stringify({ rows: [{ ...row, teacherLimit: "5" }] }));
    const response = await send("/api/schools/bulk", body, cookie);
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({ error: NOT_UTF8 });
    expect(await schoolsNamed(prefix)).toEqual([]);
    // The same row as UTF-8 is taken: the refusal is for the bytes alone.
    const good = new TextEncoder().encode(JSON.stringify({ rows: [{ ...row, schoolName: `${prefix} é`, teacherLimit: "5" }] }));
    expect((await send("/api/schools/bulk", good as Uint8Array<ArrayBuffer>, cookie)).status).toBe(201);
    expect(await schoolsNamed(prefix)).toEqual([{ name: `${prefix} é` }]);
  });

  it("a command's body sent without a JSON content type, and a route's zod-validated body: 400 too", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const book = await createBook({ title: `Encoded ${crypto.randomUUID()}` }, [school.id]);
    // A command (runJson) reads the body as JSON whatever its Content-Type says.
    const progress = await send(
      `/api/reading-progress/${book.id}`,
      withBadBytes('{"page": 1, "x": "@@"}'),
      teacher.cookie,
      "text/plain",
      "PUT",
    );
    expect(progress.status).toBe(400);
    expect(await errorBody(progress)).toEqual({ error: NOT_UTF8 });

    // A route validated by its zod schema (validate("json")): a page's failure, whose words would be kept.
    const { cookie } = await signedInAdmin();
    const set = await createUploadedPageSet(db(), env.BOOKS, book, { key: book.pdfKey!, size: 13, pageCount: 1 });
    const failure = withBadBytes('{"width": 612, "height": 792, "error": "Broken @@ page"}');
    const refused = await send(`/api/books/${book.id}/page-sets/${set.id}/pages/1/failure`, failure, cookie, "application/json", "PUT");
    expect(refused.status).toBe(400);
    expect(await errorBody(refused)).toEqual({ error: NOT_UTF8 });
  });

  it("the routes that read their own body (a highlight, a licence) refuse it whatever its Content-Type", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const { book } = await preparedBook(`Annotated ${crypto.randomUUID()}`, [school.id], ["One."]);
    const note = withBadBytes('{"kind": "note", "page": 1, "note": "Bad @@ bytes"}');
    const annotated = await send(`/api/books/${book.id}/annotations`, note, teacher.cookie, "text/plain");
    expect(annotated.status).toBe(400);
    expect(await errorBody(annotated)).toEqual({ error: NOT_UTF8 });

    const { cookie } = await signedInAdmin();
    const licence = withBadBytes(`{"schoolId": ${school.id}, "bookId": ${book.id}, "note": "PO @@"}`);
    const licensed = await send("/api/licences", licence, cookie, "text/plain");
    expect(licensed.status).toBe(400);
    expect(await errorBody(licensed)).toEqual({ error: NOT_UTF8 });
  });

  it("the admin's import page (its action reads the rows as JSON): 400, saying so, and no school stored", async () => {
    const { cookie } = await signedInAdmin();
    const prefix = `Page import ${crypto.randomUUID().slice(0, 8)}`;
    const row = {
      ...schoolFields(prefix, "office@encoding.example"),
      schoolName: `${prefix} @@`,
      slug: `page-${crypto.randomUUID().slice(0, 8)}`,
    };
    const body = withBadBytes(JSON.stringify({ intent: "bulk", rows: [{ ...row, teacherLimit: "5" }] }));
    const response = await page("/admin/preview-add-schools.data", {
      method: "POST",
      cookie,
      body,
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(NOT_UTF8);
    expect(await schoolsNamed(prefix)).toEqual([]);
  });
});
