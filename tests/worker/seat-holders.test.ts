// Seats and their holders (issue 41 item 7, docs/decisions/0028), as a script would send the
// requests: a teacher's last session ending frees their seats at once (signing out, a device
// revoked, signed out everywhere, disabled, removed), and an admin or the school's coordinator sees
// who holds a book's seats and frees one (audited); a teacher is 403, another school's
// coordinator 404, no one 401.

import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { openTeacherSession } from "../../workers/auth/sessions.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import { client, createSchool, errorOf, okBody, page, schoolStub, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const tag = () => crypto.randomUUID().slice(0, 8);
let admin: { cookie: string; email: string };

beforeAll(async () => {
  const signedIn = await signedInAdmin();
  admin = { cookie: signedIn.cookie, email: signedIn.admin.email };
});

type Teacher = Awaited<ReturnType<typeof signedInTeacher>>;

/** A school with a `seats`-seat licence of a two-page book, and a reader of it for each name. */
async function seatedSchool(seats: number, names: string[]) {
  const school = await createSchool({ slug: `seats-${tag()}`, teacherLimit: 20 });
  const { book } = await preparedBook(`Seat Book ${tag()}`, [], ["One.", "Two."]);
  const licence = await client(admin).api.licences.$post({ json: { schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats } });
  expect(licence.status).toBe(201);
  const teachers: Teacher[] = [];
  for (const name of names) teachers.push(await signedInTeacher(school, name));
  const read = (teacher: { cookie: string }) =>
    client(teacher).api.books[":id"].pages[":n"].$get({ param: { id: String(book.id), n: "1" } });
  return { school, book, teachers, read };
}

/** The teacher `h` of school `s`, as an admin's call names them. */
const teacherOf = (h: Teacher, s: { id: number }) => ({ param: { id: String(s.id), teacherId: String(h.teacher.id) } });

describe("a teacher's last session ending frees their seats", () => {
  const ways: [string, (holder: Teacher, school: { id: number }) => Promise<{ status: number }>][] = [
    ["signing out", (h) => client(h).api.teacher["sign-out"].$post()],
    [
      "revoking the session from the account page",
      async (h) => {
        const { sessions } = await okBody(client(h).api.teacher.sessions.$get());
        return client(h).api.teacher.sessions[":id"].$delete({ param: { id: sessions[0]!.id } });
      },
    ],
    ["signing out everywhere", (h) => client(h).api.teacher["sign-out-everywhere"].$post()],
    [
      "an admin ending their sessions",
      (h, s) => client(admin).api.schools[":id"].teachers[":teacherId"]["sign-out"].$post(teacherOf(h, s)),
    ],
    ["an admin disabling them", (h, s) => client(admin).api.schools[":id"].teachers[":teacherId"].disable.$post(teacherOf(h, s))],
    ["an admin removing them", (h, s) => client(admin).api.schools[":id"].teachers[":teacherId"].$delete(teacherOf(h, s))],
  ];
  for (const [way, end] of ways) {
    it(way, async () => {
      const { school, book, teachers, read } = await seatedSchool(1, ["Holder", "Waiting"]);
      const [holder, waiting] = teachers as [Teacher, Teacher];
      expect((await read(holder)).status).toBe(200);
      expect((await read(waiting)).status).toBe(409);
      expect((await end(holder, school)).status).toBeLessThan(300);
      expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(0);
      expect((await read(waiting)).status).toBe(200);
    });
  }

  it("but not while another of their sessions lives", async () => {
    const { school, book, teachers, read } = await seatedSchool(1, ["Two Devices", "Waiting"]);
    const [holder, waiting] = teachers as [Teacher, Teacher];
    await openTeacherSession(env, { id: school.id, sessionLimit: 3 }, holder.teacher, null);
    expect((await read(holder)).status).toBe(200);
    expect((await client(holder).api.teacher["sign-out"].$post()).status).toBe(200);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(1);
    expect((await read(waiting)).status).toBe(409);
  });
});

/** An admin's call about a school's seats: the list, or one teacher's seat of one book. */
const schoolSeats = (cookie?: string) => client({ cookie }).api.schools[":id"].seats;
const seatOf = (schoolId: number | string, bookId: number | string, teacherId: number | string) => ({
  param: { id: String(schoolId), bookId: String(bookId), teacherId: String(teacherId) },
});

const seatAudit = (teacherId: number) => auditEntriesOf("teacher", teacherId, "seat.free");

describe("an admin sees who holds a school's seats and frees one", () => {
  it("lists the holders of seat-limited books, frees a seat (audited once) and the waiting teacher reads", async () => {
    const { school, book, teachers, read } = await seatedSchool(2, ["Ann Holder", "Ben Holder", "Cal Waiting"]);
    const [ann, ben, cal] = teachers as [Teacher, Teacher, Teacher];
    expect((await read(ann)).status).toBe(200);
    expect((await read(ben)).status).toBe(200);
    expect((await read(cal)).status).toBe(409);
    // A book without a seat limit is not listed: nobody waits for its seats.
    const { book: open } = await preparedBook(`Open Book ${tag()}`, [school.id], ["Free."]);
    expect((await client(cal).api.books[":id"].pages[":n"].$get({ param: { id: String(open.id), n: "1" } })).status).toBe(200);

    const listed = await okBody(schoolSeats(admin.cookie).$get({ param: { id: String(school.id) } }));
    expect(listed.seats.map((s) => [s.bookId, s.name, s.held, s.seats]).sort()).toEqual([
      [book.id, "Ann Holder", 2, 2],
      [book.id, "Ben Holder", 2, 2],
    ]);

    const annsSeat = seatOf(school.id, book.id, ann.teacher.id);
    const freed = await okBody(schoolSeats(admin.cookie)[":bookId"][":teacherId"].$delete(annsSeat));
    expect(freed).toMatchObject({ freed: true, message: `Freed Ann Holder's seat of ${book.title}.` });
    const [entry, ...more] = await seatAudit(ann.teacher.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ adminEmail: admin.email, after: { bookId: book.id, seat: "free" } });
    expect((await read(cal)).status).toBe(200);
    // Ann's next page finds no seat: Ben and Cal hold them.
    expect((await read(ann)).status).toBe(409);
    // Asking again frees nothing and writes no second entry.
    const again = await okBody(schoolSeats(admin.cookie)[":bookId"][":teacherId"].$delete(annsSeat));
    expect(again).toMatchObject({ freed: false, message: `Ann Holder no longer held a seat of ${book.title}.` });
    expect(await seatAudit(ann.teacher.id)).toHaveLength(1);
  });

  it("refuses another school's teacher or book, bad ids, a teacher's cookie and no one", async () => {
    const { school, book, teachers, read } = await seatedSchool(1, ["Held"]);
    const [held] = teachers as [Teacher];
    expect((await read(held)).status).toBe(200);
    const other = await seatedSchool(1, ["Elsewhere"]);
    const [elsewhere] = other.teachers as [Teacher];
    const free = (seat: ReturnType<typeof seatOf>, cookie = admin.cookie) => schoolSeats(cookie)[":bookId"][":teacherId"].$delete(seat);
    expect(await errorOf(free(seatOf(school.id, book.id, elsewhere.teacher.id)))).toBe("Teacher not found");
    expect(await errorOf(free(seatOf(school.id, other.book.id, held.teacher.id)))).toBe("Book not found");
    expect((await free(seatOf(other.school.id, book.id, held.teacher.id))).status).toBe(404);
    for (const [bad, error] of [
      [seatOf(school.id, 0, held.teacher.id), "Book not found"],
      [seatOf(school.id, book.id, "1.5"), "Teacher not found"],
      [seatOf("x", book.id, 1), "School not found"],
    ] as const) {
      const response = await free(bad);
      const path = Object.values(bad.param).join("/");
      expect(response.status, path).toBe(404);
      expect(await errorOf(response), path).toBe(error);
    }
    expect((await schoolSeats(admin.cookie).$get({ param: { id: "99999999" } })).status).toBe(404);
    expect((await schoolSeats(held.cookie).$get({ param: { id: String(school.id) } })).status).toBe(401);
    expect((await free(seatOf(school.id, book.id, held.teacher.id), held.cookie)).status).toBe(401);
    expect((await schoolSeats().$get({ param: { id: String(school.id) } })).status).toBe(401);
    // Another site's page cannot free a seat with the admin's cookie.
    const forged = await client({ cookie: admin.cookie, origin: "https://evil.example" }).api.schools[":id"].seats[":bookId"][
      ":teacherId"
    ].$delete(seatOf(school.id, book.id, held.teacher.id));
    expect(forged.status).toBe(403);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(1);
  });

  it("from the school's admin page: the holders' table and its Free seat action", async () => {
    const { school, book, teachers, read } = await seatedSchool(1, ["Dana Page"]);
    const [dana] = teachers as [Teacher];
    expect((await read(dana)).status).toBe(200);
    const html = await (await page(`/admin/school/${school.id}`, { cookie: admin.cookie })).text();
    expect(html).toContain("Who holds the seats");
    expect(html).toContain("Dana Page");
    const post = await page(`/admin/school/${school.id}`, {
      method: "POST",
      cookie: admin.cookie,
      body: new URLSearchParams({ intent: "seat-free", bookId: String(book.id), teacherId: String(dana.teacher.id) }),
    });
    expect(await post.text()).toContain(`Freed Dana Page&#x27;s seat of ${book.title}.`);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(0);
  });
});

describe("the school's coordinator sees who holds its seats and frees one", () => {
  async function withCoordinator() {
    const seated = await seatedSchool(1, ["Cora Coordinator", "Hal Holder", "Wes Waiting"]);
    const [coordinator, holder, waiting] = seated.teachers as [Teacher, Teacher, Teacher];
    const made = await client(admin).api.schools[":id"].teachers[":teacherId"].coordinator.$post(teacherOf(coordinator, seated.school));
    expect(made.status).toBe(200);
    expect((await seated.read(holder)).status).toBe(200);
    expect((await seated.read(waiting)).status).toBe(409);
    return { ...seated, coordinator, holder, waiting };
  }
  /** A coordinator's call about the seats of the school the path names. */
  const mySeats = (cookie?: string) => client({ cookie }).api.schools.slug[":slug"].coordinator.seats;
  const mySeat = (slug: string, bookId: number, teacherId: number) => ({
    param: { slug, bookId: String(bookId), teacherId: String(teacherId) },
  });

  it("lists and frees (audited in the coordinator's name); the waiting teacher reads", async () => {
    const { school, book, coordinator, holder, waiting, read } = await withCoordinator();
    const listed = await okBody(mySeats(coordinator.cookie).$get({ param: { slug: school.slug } }));
    expect(listed.seats).toMatchObject([{ bookId: book.id, name: "Hal Holder", held: 1, seats: 1 }]);
    const freed = mySeats(coordinator.cookie)[":bookId"][":teacherId"].$delete(mySeat(school.slug, book.id, holder.teacher.id));
    expect(await okBody(freed)).toMatchObject({ freed: true });
    const [entry] = await seatAudit(holder.teacher.id);
    expect(entry?.adminEmail).toBe(`${coordinator.teacher.email} (coordinator)`);
    expect(entry?.adminId).toBeNull();
    expect((await read(waiting)).status).toBe(200);
  });

  it("a plain teacher is 403, another school's coordinator 404, and a coordinator cannot name another school's teacher", async () => {
    const { school, book, holder, waiting } = await withCoordinator();
    const forbidden = await mySeats(waiting.cookie).$get({ param: { slug: school.slug } });
    expect(forbidden.status).toBe(403);
    expect(await errorOf(forbidden)).toBe("Only your school's coordinators can do this.");
    const holdersSeat = mySeat(school.slug, book.id, holder.teacher.id);
    const plainFree = await mySeats(waiting.cookie)[":bookId"][":teacherId"].$delete(holdersSeat);
    expect(plainFree.status).toBe(403);

    const other = await withCoordinator();
    // Their own school's path, another school's teacher and book: as if they did not exist.
    const theirs = mySeats(other.coordinator.cookie);
    const across = await theirs[":bookId"][":teacherId"].$delete(mySeat(other.school.slug, book.id, holder.teacher.id));
    expect(across.status).toBe(404);
    // The other school's path with their cookie: the guard's 404, as for the library.
    expect((await theirs.$get({ param: { slug: school.slug } })).status).toBe(404);
    expect((await theirs[":bookId"][":teacherId"].$delete(holdersSeat)).status).toBe(404);
    expect((await mySeats().$get({ param: { slug: school.slug } })).status).toBe(401);
    expect((await mySeats(admin.cookie).$get({ param: { slug: school.slug } })).status).toBe(401);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(1);
  });

  it("from My school: the holders' table and its Free seat action", async () => {
    const { school, book, coordinator, holder } = await withCoordinator();
    const url = `/schools/${school.slug}/my-school`;
    const html = await (await page(url, { cookie: coordinator.cookie })).text();
    expect(html).toContain("Who holds the seats");
    expect(html).toContain("Hal Holder");
    const post = await page(url, {
      method: "POST",
      cookie: coordinator.cookie,
      body: new URLSearchParams({ intent: "seat-free", bookId: String(book.id), teacherId: String(holder.teacher.id) }),
    });
    expect(await post.text()).toContain(`Freed Hal Holder&#x27;s seat of ${book.title}.`);
    expect(await (await schoolStub(school.id)).seatsHeld(school.id, book.id)).toBe(0);
  });
});
