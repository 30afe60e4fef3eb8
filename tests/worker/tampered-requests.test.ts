// Requests tampered with as a teacher with curl and devtools would try them, at issue 41's new and
// changed endpoints (the review's R3): a coordinator of school A with school B's ids, through the API and My school's form;
// a cookie of A on B's host; headers a script may forge (Host, X-Forwarded-Host, X-Forwarded-Proto,
// Origin of a sibling school's subdomain, Sec-Fetch-Site, Referer); the admin's Free seat with a
// teacher's cookie; and notes of a book whose licence ended. What seat-holders, coordinators,
// annotations and licence-ended already try is not repeated here.

import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOf } from "#shared/rules/licence.ts";
import { bookAccess } from "../../workers/db/schema.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import { api, client, createSchool, db, page, pagesSpent, schoolStub, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";
import { atProvider, cookiesOf, schoolWith } from "./sso-journey.ts";

// Most calls here go to a school's host or a Host we do not serve, which the typed client (bound to our
// own origin) does not call: those stay raw. The rest go through the typed client.

const tag = () => crypto.randomUUID().slice(0, 8);
let admin: { cookie: string };

beforeAll(async () => {
  admin = { cookie: (await signedInAdmin()).cookie };
});

type Teacher = Awaited<ReturnType<typeof signedInTeacher>>;

/** A school with a one-seat licence of its own book, a coordinator, and a teacher holding the seat. */
async function schoolWithHeldSeat() {
  const school = await createSchool({ slug: `atk-${tag()}`, teacherLimit: 20 });
  const { book } = await preparedBook(`Attack Book ${tag()}`, [], ["One.", "Two."]);
  const licence = await client(admin).api.licences.$post({
    json: { schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats: 1 },
  });
  expect(licence.status).toBe(201);
  const coordinator: Teacher = await signedInTeacher(school, "Cora Coordinator");
  const holder: Teacher = await signedInTeacher(school, "Hal Holder");
  const made = await client(admin).api.schools[":id"].teachers[":teacherId"].coordinator.$post({
    param: { id: String(school.id), teacherId: String(coordinator.teacher.id) },
  });
  expect(made.status).toBe(200);
  expect((await client(holder).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "1" } })).status).toBe(200);
  const held = async () => (await schoolStub(school.id)).seatsHeld(school.id, book.id);
  expect(await held()).toBe(1);
  return { school, book, coordinator, holder, held };
}

const seatsPath = (slug: string, rest = "") => `/api/schools/slug/${slug}/coordinator/seats${rest}`;
const seatAudits = async (teacherId: number) => auditEntriesOf("teacher", teacherId, "seat.free");

describe("a coordinator of school A with school B's ids", () => {
  it("My school's Free seat (the form) frees nothing of B: B's teacher, B's book, or A's teacher with B's book", async () => {
    const a = await schoolWithHeldSeat();
    const b = await schoolWithHeldSeat();
    const url = `/schools/${a.school.slug}/my-school`;
    for (const [bookId, teacherId, error] of [
      [b.book.id, b.holder.teacher.id, "Teacher not found"],
      [b.book.id, a.holder.teacher.id, "Book not found"],
      [a.book.id, b.holder.teacher.id, "Teacher not found"],
    ] as const) {
      const post = await page(url, {
        method: "POST",
        cookie: a.coordinator.cookie,
        body: new URLSearchParams({ intent: "seat-free", bookId: String(bookId), teacherId: String(teacherId) }),
      });
      expect(post.status, `${bookId}/${teacherId}`).toBe(404);
      expect(await post.text()).toContain(error);
    }
    expect(await b.held()).toBe(1);
    expect(await a.held()).toBe(1);
    expect(await seatAudits(b.holder.teacher.id)).toHaveLength(0);
  });

  it("B's My school form, on the path and on B's subdomain, with A's cookie: refused, B's seat still held", async () => {
    const a = await schoolWithHeldSeat();
    const b = await schoolWithHeldSeat();
    const body = () => new URLSearchParams({ intent: "seat-free", bookId: String(b.book.id), teacherId: String(b.holder.teacher.id) });
    for (const url of [`https://lectern.test/schools/${b.school.slug}/my-school`, `https://${b.school.slug}.lectern.test/my-school`]) {
      const post = await page(url, { method: "POST", cookie: a.coordinator.cookie, body: body() });
      expect(post.status, url).not.toBe(200);
      expect(await post.text(), url).not.toContain("Freed");
    }
    expect(await b.held()).toBe(1);
    expect(await seatAudits(b.holder.teacher.id)).toHaveLength(0);
  });

  it("the seats API with A's cookie on B's host, or on A's host naming B: nothing listed, nothing freed", async () => {
    const a = await schoolWithHeldSeat();
    const b = await schoolWithHeldSeat();
    const freeB = seatsPath(b.school.slug, `/${b.book.id}/${b.holder.teacher.id}`);
    for (const [host, path] of [
      [`https://${b.school.slug}.lectern.test`, seatsPath(b.school.slug)],
      [`https://${a.school.slug}.lectern.test`, seatsPath(b.school.slug)],
      [`https://${b.school.slug}.lectern.test`, seatsPath(a.school.slug)],
    ] as const) {
      const listed = await api(`${host}${path}`, { cookie: a.coordinator.cookie });
      expect([401, 404], `${host}${path}`).toContain(listed.status);
      expect(await listed.text()).not.toContain("Hal Holder");
    }
    for (const host of [`https://${b.school.slug}.lectern.test`, `https://${a.school.slug}.lectern.test`]) {
      const freed = await api(`${host}${freeB}`, { method: "DELETE", cookie: a.coordinator.cookie });
      expect([401, 404], host).toContain(freed.status);
    }
    expect(await b.held()).toBe(1);
  });
});

describe("school A's cookie on school B's host, at the reader", () => {
  it("pages, their text, the page list and notes of A's own book are 404 there, and no page is spent", async () => {
    const a = await createSchool({ slug: `atk-a-${tag()}` });
    const b = await createSchool({ slug: `atk-b-${tag()}` });
    const reader = await signedInTeacher(a, "Ann Across");
    const { book } = await preparedBook(`Across ${tag()}`, [a.id], ["One.", "Two."]);
    const onB = `https://${b.slug}.lectern.test/api/books/${book.id}`;
    for (const path of ["/pages/1", "/pages/1/text", "/pages", "/annotations", "/annotations/export"]) {
      expect((await api(`${onB}${path}`, { cookie: reader.cookie })).status, path).toBe(404);
    }
    expect(await pagesSpent(a, reader.teacher.id, book.id)).toBe(0);
    // On A's own host the same cookie reads: the 404s above were the host's.
    expect((await api(`https://${a.slug}.lectern.test/api/books/${book.id}/pages/1`, { cookie: reader.cookie })).status).toBe(200);
  });
});

describe("headers a script sends", () => {
  it("a sibling school's subdomain as Origin, a cross-site Sec-Fetch-Site, a Referer of ours: refused, nothing freed", async () => {
    const a = await schoolWithHeldSeat();
    const b = await schoolWithHeldSeat();
    const host = `https://${a.school.slug}.lectern.test`;
    const free = `${host}${seatsPath(a.school.slug, `/${a.book.id}/${a.holder.teacher.id}`)}`;
    const attempts: { origin: string | null; headers?: Record<string, string> }[] = [
      // B's page, same-site with A's: SameSite=Lax sends A's cookie along.
      { origin: `https://${b.school.slug}.lectern.test` },
      { origin: "https://lectern.test" },
      { origin: `http://${a.school.slug}.lectern.test` },
      { origin: "null" },
      { origin: null, headers: { "Sec-Fetch-Site": "same-site" } },
      { origin: null, headers: { "Sec-Fetch-Site": "cross-site", Referer: `${host}/my-school` } },
      { origin: null, headers: { Referer: `${host}/my-school` } },
      { origin: "https://evil.example", headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" } },
    ];
    for (const attempt of attempts) {
      const response = await api(free, { method: "DELETE", cookie: a.coordinator.cookie, ...attempt });
      expect(response.status, JSON.stringify(attempt)).toBe(403);
    }
    // The page's form: the same check, before the action.
    const form = await page(`${host}/my-school`, {
      method: "POST",
      cookie: a.coordinator.cookie,
      headers: { Origin: `https://${b.school.slug}.lectern.test` },
      body: new URLSearchParams({ intent: "seat-free", bookId: String(a.book.id), teacherId: String(a.holder.teacher.id) }),
    });
    expect(form.status).toBe(403);
    expect(await a.held()).toBe(1);
  });

  it("a Host we do not serve is 400 before any route, whatever Origin or X-Forwarded-Host says", async () => {
    const a = await schoolWithHeldSeat();
    const path = seatsPath(a.school.slug, `/${a.book.id}/${a.holder.teacher.id}`);
    for (const host of [
      "https://evil.example",
      `https://${a.school.slug}.lectern.test.evil.example`,
      "https://lectern.test.evil.example",
    ]) {
      const response = await api(`${host}${path}`, {
        method: "DELETE",
        cookie: a.coordinator.cookie,
        headers: { "X-Forwarded-Host": `${a.school.slug}.lectern.test` },
      });
      expect(response.status, host).toBe(400);
    }
    // X-Forwarded-* on our own host changes nothing: the request is answered for its own Host.
    const seats = client({ cookie: a.coordinator.cookie }).api.schools.slug[":slug"].coordinator.seats;
    const listed = await seats.$get(
      { param: { slug: a.school.slug } },
      { headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http", "CF-Connecting-IP": "203.0.113.9" } },
    );
    expect(listed.status).toBe(200);
    expect(await a.held()).toBe(1);
  });
});

describe("an admin's Free seat", () => {
  it("the school page's form with a teacher's or coordinator's cookie frees nothing", async () => {
    const a = await schoolWithHeldSeat();
    const body = () => new URLSearchParams({ intent: "seat-free", bookId: String(a.book.id), teacherId: String(a.holder.teacher.id) });
    for (const cookie of [a.holder.cookie, a.coordinator.cookie]) {
      const post = await page(`/admin/school/${a.school.id}`, { method: "POST", cookie, body: body() });
      expect(post.status).not.toBe(200);
      expect(await post.text()).not.toContain("Freed");
    }
    expect(await a.held()).toBe(1);
  });

  it("the admin's cookie on a school's subdomain is no admin there: the seats API is 401 and the seat stays", async () => {
    const a = await schoolWithHeldSeat();
    const host = `https://${a.school.slug}.lectern.test`;
    expect((await api(`${host}/api/schools/${a.school.id}/seats`, { cookie: admin.cookie })).status).toBe(401);
    const freed = await api(`${host}/api/schools/${a.school.id}/seats/${a.book.id}/${a.holder.teacher.id}`, {
      method: "DELETE",
      cookie: admin.cookie,
    });
    expect(freed.status).toBe(401);
    expect(await a.held()).toBe(1);
  });
});

describe("notes of a book whose licence ended", () => {
  it("are not made, listed or exported (403 licence-ended, as the pages answer)", async () => {
    const school = await createSchool({ slug: `atk-ended-${tag()}` });
    const { cookie } = await signedInTeacher(school, "Enid Ended");
    const { book } = await preparedBook(`Ended Notes ${tag()}`, [school.id], ["One two three.", "Four."]);
    // Raw: the notes route reads its body itself (not declared to Hono), so the typed client cannot send one.
    const create = (body: unknown) => api(`/api/books/${book.id}/annotations`, { cookie, body });
    const notes = client({ cookie }).api.books[":id"].annotations;
    const param = { id: String(book.id) };
    const made = await create({ kind: "highlight", page: 1, start: { run: 0, offset: 0 }, end: { run: 0, offset: 3 } });
    expect(made.status).toBe(201);
    const today = dayOf(Date.now());
    await db()
      .update(bookAccess)
      .set({ startsOn: addDays(today, -30), endsOn: addDays(today, -1) })
      .where(and(eq(bookAccess.schoolId, school.id), eq(bookAccess.bookId, book.id)));
    for (const response of [
      await create({ kind: "note", page: 1, note: "After the end" }),
      await notes.$get({ param }),
      await notes.export.$get({ param }),
    ]) {
      expect(response.status, response.url).toBe(403);
      expect(await response.text()).not.toContain("One");
    }
  });
});

describe("a provider sign-in with forwarding headers a script sets", () => {
  it("builds its way back, the callback and the ticket's address from our own hosts only", async () => {
    const school = await schoolWith("google");
    const origin = `https://${school.slug}.lectern.test`;
    const forged = { "X-Forwarded-Host": "evil.test", "X-Forwarded-Proto": "http", Forwarded: "host=evil.test;proto=http" };
    const started = await api(`${origin}/api/auth/oidc/google/start?school=${school.slug}`, { headers: forged });
    expect(started.status).toBe(302);
    const location = started.headers.get("Location") ?? "";
    expect(new URL(location).searchParams.get("redirect_uri")).toBe("https://lectern.test/api/auth/oidc/google/callback");
    expect(location).not.toContain("evil");
    const callback = await atProvider(location, "fay@school.example.org");
    const back = await api(callback, { headers: forged });
    const next = back.headers.get("Location") ?? "";
    expect(next.startsWith(`${origin}/api/auth/oidc/complete?ticket=`)).toBe(true);
    const done = await api(next, { cookie: cookiesOf(started).join("; "), headers: forged });
    expect(done.headers.get("Location")).toBe(`${origin}/dashboard`);
  });
});
