// A school's data export and a teacher's own data (issue 44 item 1, docs/decisions/0044), as a script
// would ask for them: an admin's and a coordinator's request (audited), the ZIP built by the app's
// queue consumer into R2 and downloaded, unzipped and read file by file (no password hash, code or
// token anywhere in it, another school's teacher absent); a coordinator of another school, a plain
// teacher and a signed-out caller refused; the teacher's own ZIP.

import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { dayOf } from "#shared/rules/licence.ts";
import { teacherTokenHash } from "../../workers/auth/sessions.ts";
import { otpCodes, teachers } from "../../workers/db/schema.ts";
import { readingDaily } from "../../workers/db/usage-schema.ts";
import { EXPORT_DOWNLOADED, EXPORT_REQUESTED } from "../../workers/exports/commands.ts";
import { EXPORT_FAILED, sweepExports } from "../../workers/exports/school-job.ts";
import {
  EXPORT_KEEP_MS,
  EXPORT_MAX_ATTEMPTS,
  EXPORT_STALE_MS,
  readStatus,
  removeSchoolExports,
  schoolPrefix,
  statusKey,
  writeStatus,
  zipKey,
} from "../../workers/exports/store.ts";
import { handleApp } from "./entry.ts";
import { auditEntriesOf } from "./fixtures-audit.ts";
import { client, createSchool, db, errorOf, ORIGIN, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const HASH_A = "pbkdf2$A-secret-password-hash-0123456789";
const HASH_B = "pbkdf2$B-secret-password-hash-9876543210";
const OTP_HASH = "otp-code-hash-abcdef0123456789";

let schoolA: Awaited<ReturnType<typeof createSchool>>;
let schoolB: Awaited<ReturnType<typeof createSchool>>;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let coordinatorA: Awaited<ReturnType<typeof signedInTeacher>>;
let readerA: Awaited<ReturnType<typeof signedInTeacher>>;
let coordinatorB: Awaited<ReturnType<typeof signedInTeacher>>;
let bookId: number;

beforeAll(async () => {
  schoolA = await createSchool({ name: "Export Academy" });
  schoolB = await createSchool({ name: "Other Academy" });
  admin = await signedInAdmin();
  coordinatorA = await signedInTeacher(schoolA, "Cora Coordinator");
  readerA = await signedInTeacher(schoolA, "Nia Notetaker");
  coordinatorB = await signedInTeacher(schoolB, "Bram Elsewhere");
  await db().update(teachers).set({ coordinator: true }).where(eq(teachers.id, coordinatorA.teacher.id));
  await db().update(teachers).set({ coordinator: true }).where(eq(teachers.id, coordinatorB.teacher.id));
  await db().update(teachers).set({ passwordHash: HASH_A }).where(eq(teachers.id, readerA.teacher.id));
  await db().update(teachers).set({ passwordHash: HASH_B }).where(eq(teachers.id, coordinatorB.teacher.id));
  await db()
    .insert(otpCodes)
    .values({ schoolId: schoolA.id, email: readerA.teacher.email, purpose: "reset", codeHash: OTP_HASH, expiresAt: Date.now() + 60_000 });
  // A title of its own: worker test files share one D1, and admin-books.test.ts checks that no
  // "Rivers of the World" exists.
  const book = await preparedBook("Rivers to Export", [schoolA.id, schoolB.id], ["The Nile is long.", "The Amazon is wide."]);
  bookId = book.book.id;
  const notes = client({ cookie: readerA.cookie }).api.books[":id"].annotations;
  const param = { id: String(bookId) };
  await okBody(notes.$post({ param, json: { kind: "note", page: 2, note: "Compare with the Ganges." } }));
  await okBody(notes.$post({ param, json: { kind: "bookmark", page: 1, label: "Start here" } }));
  // Another school's teacher has a note of the same book: it must not reach A's export.
  const otherNotes = client({ cookie: coordinatorB.cookie }).api.books[":id"].annotations;
  await okBody(otherNotes.$post({ param, json: { kind: "note", page: 1, note: "B's private note" } }));
  await db()
    .insert(readingDaily)
    .values([
      { day: dayOf(Date.now()), schoolId: schoolA.id, bookId, teacherId: readerA.teacher.id, pages: 7, seconds: 420 },
      { day: dayOf(Date.now()), schoolId: schoolB.id, bookId, teacherId: coordinatorB.teacher.id, pages: 3, seconds: 99 },
    ]);
});

const adminExports = (cookie: string | null = admin.cookie) => client({ cookie }).api.schools[":id"].exports;
const coordinatorExports = (cookie: string | null) => client({ cookie }).api.schools.slug[":slug"].coordinator.exports;

/** The export's status once the queue consumer has built it (or failed it). */
async function whenBuilt(schoolId: number, exportId: string) {
  for (let i = 0; i < 200; i++) {
    const status = await readStatus(env.BOOKS, schoolId, exportId);
    if (status && (status.state === "ready" || status.state === "failed")) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("The export was not built in 10 s");
}

/** The ZIP's files as text. */
async function unzipped(response: Pick<Response, "status" | "headers" | "arrayBuffer">): Promise<Record<string, string>> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/zip");
  const names: string[] = [];
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()), { filter: (file) => names.push(file.name) > 0 });
  // Every entry once: unzipSync keeps the last of two entries with one name.
  expect(names.length).toBe(new Set(names).size);
  return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
}

/** No password hash, one-time code's hash, session token or token hash, in any file. */
async function expectNoSecrets(files: Record<string, string>) {
  const all = Object.values(files).join("\n");
  const sessions = [readerA, coordinatorA].map((t) => t.cookie.split("=")[1]!);
  const tokens = [...sessions.map((value) => value.split(".")[1]!), ...(await Promise.all(sessions.map(teacherTokenHash)))];
  for (const secret of [HASH_A, HASH_B, OTP_HASH, "password_hash", "tokenHash", "token_hash", ...tokens]) expect(all).not.toContain(secret);
}

describe("a school's export", () => {
  it("is asked for by an admin (audited), built by the queue into R2, and downloaded as a ZIP of the school's data", async () => {
    const asked = await adminExports().$post({ param: { id: String(schoolA.id) } });
    expect(asked.status).toBe(202);
    const { export: queued } = await okBody(asked);
    expect(queued).toMatchObject({ state: "queued", schoolId: schoolA.id, requestedBy: admin.admin.email });
    const requested = await auditEntriesOf("school", schoolA.id, EXPORT_REQUESTED);
    expect(requested.map((e) => [e.adminEmail, e.after])).toContainEqual([admin.admin.email, { exportId: queued.id }]);

    const built = await whenBuilt(schoolA.id, queued.id);
    expect(built).toMatchObject({ state: "ready", error: null });
    const listed = await okBody(adminExports().$get({ param: { id: String(schoolA.id) } }));
    expect(listed.exports[0]).toMatchObject({ id: queued.id, state: "ready", size: built.size });

    const download = adminExports()[":exportId"].download.$get({ param: { id: String(schoolA.id), exportId: queued.id } });
    const files = await unzipped(await download);
    expect(Object.keys(files).sort()).toEqual([
      "README.md",
      "licences.csv",
      `notes/${readerA.teacher.id}-nia-notetaker/${bookId}-rivers-to-export.md`,
      "reading-usage.csv",
      "school-usage-daily.csv",
      "school.csv",
      "sign-ins.csv",
      "teachers.csv",
    ]);
    expect(files["school.csv"]).toContain(schoolA.slug);
    expect(files["licences.csv"]).toContain("Rivers to Export");
    expect(files["teachers.csv"]).toContain(readerA.teacher.email);
    expect(files["teachers.csv"]).toContain(coordinatorA.teacher.email);
    expect(files["reading-usage.csv"]).toContain(
      `,${readerA.teacher.id},Nia Notetaker,${readerA.teacher.email},${bookId},Rivers to Export,7,420`,
    );
    // The reader's own "Export notes" Markdown, exactly.
    const own = await client({ cookie: readerA.cookie }).api.books[":id"].annotations.export.$get({ param: { id: String(bookId) } });
    expect(files[`notes/${readerA.teacher.id}-nia-notetaker/${bookId}-rivers-to-export.md`]).toBe(await own.text());
    expect(files["README.md"]).toContain("teachers.csv");
    // Another school's teacher, their note and their usage are nowhere in it; nor any secret.
    const all = Object.values(files).join("\n");
    expect(all).not.toContain(coordinatorB.teacher.email);
    expect(all).not.toContain("B's private note");
    await expectNoSecrets(files);
    expect(await auditEntriesOf("school", schoolA.id, EXPORT_DOWNLOADED)).toHaveLength(1);
  });

  it("is asked for by the school's coordinator for their own school, and downloaded by them", async () => {
    const asked = await coordinatorExports(coordinatorA.cookie).$post({ param: { slug: schoolA.slug } });
    expect(asked.status).toBe(202);
    const { export: queued } = await okBody(asked);
    expect(queued.requestedBy).toBe(`${coordinatorA.teacher.email} (coordinator)`);
    const entries = await auditEntriesOf("school", schoolA.id, EXPORT_REQUESTED);
    expect(entries.some((e) => e.adminEmail === `${coordinatorA.teacher.email} (coordinator)` && e.adminId === null)).toBe(true);
    await whenBuilt(schoolA.id, queued.id);
    const files = await unzipped(
      await coordinatorExports(coordinatorA.cookie)[":exportId"].download.$get({ param: { slug: schoolA.slug, exportId: queued.id } }),
    );
    expect(files["teachers.csv"]).toContain(readerA.teacher.email);
    await expectNoSecrets(files);
  });

  it("refuses a coordinator of another school, a plain teacher, a teacher's cookie at the admin's route, and no one signed in", async () => {
    const before = (await auditEntriesOf("school", schoolA.id, EXPORT_REQUESTED)).length;
    // B's coordinator names A's slug: A's endpoints do not know them.
    expect((await coordinatorExports(coordinatorB.cookie).$post({ param: { slug: schoolA.slug } })).status).toBe(404);
    expect((await coordinatorExports(coordinatorB.cookie).$get({ param: { slug: schoolA.slug } })).status).toBe(404);
    expect((await coordinatorExports(readerA.cookie).$post({ param: { slug: schoolA.slug } })).status).toBe(403);
    expect((await coordinatorExports(readerA.cookie).$get({ param: { slug: schoolA.slug } })).status).toBe(403);
    expect((await adminExports(coordinatorA.cookie).$post({ param: { id: String(schoolA.id) } })).status).toBe(401);
    expect((await adminExports(null).$post({ param: { id: String(schoolA.id) } })).status).toBe(401);
    expect((await coordinatorExports(null).$post({ param: { slug: schoolA.slug } })).status).toBe(401);
    expect((await auditEntriesOf("school", schoolA.id, EXPORT_REQUESTED)).length).toBe(before);

    // A's export, named through B's own school by B's coordinator: not found there.
    const [mine] = (await okBody(adminExports().$get({ param: { id: String(schoolA.id) } }))).exports;
    const through = coordinatorExports(coordinatorB.cookie)[":exportId"].download;
    expect((await through.$get({ param: { slug: schoolB.slug, exportId: mine!.id } })).status).toBe(404);
    const plain = coordinatorExports(readerA.cookie)[":exportId"].download;
    expect((await plain.$get({ param: { slug: schoolA.slug, exportId: mine!.id } })).status).toBe(403);
    const signedOut = adminExports(null)[":exportId"].download;
    expect((await signedOut.$get({ param: { id: String(schoolA.id), exportId: mine!.id } })).status).toBe(401);
  });

  it("is one at a time per school, and removed with its ZIP after a day", async () => {
    const school = await createSchool({ name: "Sweep School" });
    const exportsOf = adminExports();
    const first = await okBody(exportsOf.$post({ param: { id: String(school.id) } }));
    const built = await whenBuilt(school.id, first.export.id);
    // Another export of the school being prepared: a second request is refused as busy.
    await writeStatus(env.BOOKS, { ...built, id: crypto.randomUUID(), state: "building", requestedAt: Date.now() });
    const second = await exportsOf.$post({ param: { id: String(school.id) } });
    expect(second.status).toBe(409);
    expect(await errorOf(second)).toMatch(/already being prepared/);
    expect(await env.BOOKS.head(zipKey(school.id, built.id))).not.toBeNull();
    await writeStatus(env.BOOKS, { ...built, requestedAt: Date.now() - EXPORT_KEEP_MS - 1 });
    expect((await exportsOf[":exportId"].download.$get({ param: { id: String(school.id), exportId: built.id } })).status).toBe(404);
    await sweepExports(env);
    expect(await env.BOOKS.head(zipKey(school.id, built.id))).toBeNull();
    expect(await env.BOOKS.head(statusKey(school.id, built.id))).toBeNull();
  });

  it("can be removed at once for an erasure of the school's personal data, and only that school's", async () => {
    const { export: mine } = await okBody(adminExports().$post({ param: { id: String(schoolB.id) } }));
    await whenBuilt(schoolB.id, mine.id);
    const others = (await env.BOOKS.list({ prefix: schoolPrefix(schoolA.id) })).objects.length;
    expect(await removeSchoolExports(env.BOOKS, schoolB.id)).toBe(2);
    expect((await env.BOOKS.list({ prefix: schoolPrefix(schoolB.id) })).objects).toEqual([]);
    expect((await env.BOOKS.list({ prefix: schoolPrefix(schoolA.id) })).objects.length).toBe(others);
  });
});

describe("a school's export after its personal data was erased", () => {
  it("lists no erased teacher, and keeps their reading in the usage file with no name or address", async () => {
    const school = await createSchool({ name: "Erased Academy" });
    const gone = await signedInTeacher(school, "Gwen Gone");
    await db()
      .insert(readingDaily)
      .values({ day: dayOf(Date.now()), schoolId: school.id, bookId, teacherId: gone.teacher.id, pages: 5, seconds: 300 });
    const erase = client({ cookie: admin.cookie }).api.schools[":id"]["erase-personal-data"];
    expect((await erase.$post({ param: { id: String(school.id) } })).status).toBe(200);
    const { export: queued } = await okBody(adminExports().$post({ param: { id: String(school.id) } }));
    expect(await whenBuilt(school.id, queued.id)).toMatchObject({ state: "ready" });
    const files = await unzipped(
      await adminExports()[":exportId"].download.$get({ param: { id: String(school.id), exportId: queued.id } }),
    );
    // The header only: the erased row is no person.
    expect(files["teachers.csv"]?.trim().split("\n")).toHaveLength(1);
    expect(files["reading-usage.csv"]).toContain(`,${gone.teacher.id},,,${bookId},Rivers to Export,5,300`);
    expect(Object.values(files).join("\n")).not.toContain("erased:");
  });
});

describe("the pages", () => {
  it("show the section, with no exports, when R2 cannot be listed: the school page does not fail with it", async () => {
    const failingList = Object.assign(Object.create(env.BOOKS) as R2Bucket, {
      list: () => Promise.reject(new Error("R2 is unreachable")),
    });
    const ctx = createExecutionContext();
    const request = new Request(`${ORIGIN}/admin/school/${schoolA.id}`, { headers: { Cookie: admin.cookie } });
    const response = await handleApp(request, { ...env, BOOKS: failingList }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("School data export");
    expect(html).not.toContain("Download ZIP");
  });
});

describe("a build a restart lost", () => {
  it("is sent again by the minute cron once its status has not moved for 3 minutes, and failed after its last attempt", async () => {
    const school = await createSchool({ name: "Restart School" });
    const now = Date.now();
    const lost = {
      id: crypto.randomUUID(),
      schoolId: school.id,
      slug: school.slug,
      state: "building" as const,
      requestedBy: admin.admin.email,
      requestedAt: now - 10 * 60_000,
      updatedAt: now - EXPORT_STALE_MS - 1,
      attempts: 1,
      step: "teachers.csv",
      rows: 10,
      size: null,
      error: null,
    };
    const spent = { ...lost, id: crypto.randomUUID(), attempts: EXPORT_MAX_ATTEMPTS };
    await writeStatus(env.BOOKS, lost);
    await writeStatus(env.BOOKS, spent);
    // A build still moving is left alone.
    const moving = { ...lost, id: crypto.randomUUID(), updatedAt: now - 1_000 };
    await writeStatus(env.BOOKS, moving);
    expect(await sweepExports(env, now)).toMatchObject({ resent: 1 });
    expect(await whenBuilt(school.id, lost.id)).toMatchObject({ state: "ready", attempts: 2 });
    expect(await readStatus(env.BOOKS, school.id, spent.id)).toMatchObject({ state: "failed", error: EXPORT_FAILED });
    expect(await readStatus(env.BOOKS, school.id, moving.id)).toMatchObject({ state: "building", attempts: 1 });
  });
});

describe("a teacher's own data", () => {
  it("is a ZIP of their account, sign-ins, devices, usage, favourites, progress and notes, without secrets or colleagues", async () => {
    // A colleague's note of the same book is theirs, not in this teacher's file.
    const cora = await signedInTeacher(schoolA, "Cora Colleague");
    const colleague = client({ cookie: cora.cookie }).api.books[":id"].annotations;
    await okBody(colleague.$post({ param: { id: String(bookId) }, json: { kind: "note", page: 1, note: "Cora's own note" } }));
    const response = await client({ cookie: readerA.cookie }).api.teacher["my-data"].$get();
    const files = await unzipped(response);
    expect(Object.keys(files).sort()).toEqual([
      "README.md",
      "account.csv",
      "devices.csv",
      "favourites.csv",
      `notes/${bookId}-rivers-to-export.md`,
      "reading-progress.csv",
      "reading-usage.csv",
      "sign-ins.csv",
    ]);
    expect(files["account.csv"]).toContain(readerA.teacher.email);
    expect(files["account.csv"]).not.toContain(coordinatorA.teacher.email);
    expect(files["reading-usage.csv"]).toContain(",7,420");
    expect(files[`notes/${bookId}-rivers-to-export.md`]).toContain("Compare with the Ganges.");
    expect(Object.values(files).join("\n")).not.toContain("Cora's own note");
    await expectNoSecrets(files);
    expect((await client({ cookie: null }).api.teacher["my-data"].$get()).status).toBe(401);
  });
});
