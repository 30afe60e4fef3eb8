// Redeeming a bookstore code (issue 46 item 2, docs/decisions/0053): every refusal, each with its
// sentence and `status`, and who may redeem for which school, each as a script would send it.
// Batches are written straight to D1 (code-redeem-fixtures.ts); every call comes from a fresh address.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CODE_FORMAT_ERROR } from "#shared/rules/code-format.ts";
import { addDays, formatDay } from "#shared/rules/licence.ts";
import { OWN_SCHOOL_ONLY, SAY_WHICH_SCHOOL } from "../../workers/codes/redeem-commands.ts";
import { CODE_REVOKED, CODE_UNAVAILABLE, CODE_USED, CODE_WRONG, codeExpired } from "../../workers/codes/redeem-lookup.ts";
import { auditLog, books, codeBatches, codes } from "../../workers/db/schema.ts";
import { NOT_COORDINATOR } from "../../workers/teachers/coordinators.ts";
import { coordinatorOf, oneCode, redeem, schoolWithCoordinator, storedCode } from "./code-redeem-fixtures.ts";
import { adminForTheFile, today } from "./fixtures-suite.ts";
import { api, createSchool, db, errorBody, licenceOf, okBody, signedInTeacher } from "./helpers.ts";

const admin = adminForTheFile();

/** A code nobody made: the right shape, 16 random characters of the alphabet. */
const madeUpCode = () => {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const picks = crypto.getRandomValues(new Uint8Array(16));
  return `LECT-${Array.from(picks, (byte) => alphabet[byte & 31]).join("")}`;
};

describe("a code refused", () => {
  it("that is not a code at all: 400 on the field, status format, nothing looked up", async () => {
    const { coordinator } = await schoolWithCoordinator();
    for (const typed of ["LECT-1234", "LECT-OOOO-IIII-0000-1111", "", "x".repeat(40)]) {
      const answer = await redeem(coordinator.cookie, { code: typed });
      expect(answer.status, typed).toBe(400);
      expect(await errorBody(answer)).toMatchObject({ error: CODE_FORMAT_ERROR, field: "code", status: "format" });
    }
  });

  it("that no batch has: 400 on the field, status wrong", async () => {
    const { coordinator } = await schoolWithCoordinator();
    const answer = await redeem(coordinator.cookie, { code: madeUpCode() });
    expect(answer.status).toBe(400);
    expect(await errorBody(answer)).toMatchObject({ error: CODE_WRONG, field: "code", status: "wrong" });
  });

  it("used by another school: 409 'already redeemed'; used by this school: 409 saying when it did", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const other = await schoolWithCoordinator();
    const { book, code } = await oneCode();
    // Typing is forgiving: lower case, no dashes, no prefix.
    expect((await redeem(coordinator.cookie, { code: code.slice(5).replaceAll("-", "").toLowerCase() })).status).toBe(200);

    const byOther = await redeem(other.coordinator.cookie, { code });
    expect(byOther.status).toBe(409);
    expect(await errorBody(byOther)).toMatchObject({ error: CODE_USED, status: "used" });
    expect(await licenceOf(other.school.id, book.id)).toBeUndefined();

    const again = await redeem(coordinator.cookie, { code });
    expect(again.status).toBe(409);
    expect(await errorBody(again)).toMatchObject({ error: `Your school redeemed this code on ${formatDay(today())}.`, status: "used" });
    // The admin, for that school, reads its name.
    const byAdmin = await redeem(admin.cookie, { code, schoolId: school.id });
    expect(await errorBody(byAdmin)).toMatchObject({
      error: `${school.name} redeemed this code on ${formatDay(today())}.`,
      status: "used",
    });
  });

  it("past its redeem-by day, or past its batch's fixed last day: 409 naming the last day, status expired", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const yesterday = addDays(today(), -1);
    const late = await oneCode({ redeemBy: yesterday });
    const answer = await redeem(coordinator.cookie, { code: late.code });
    expect(answer.status).toBe(409);
    expect(await errorBody(answer)).toMatchObject({ error: codeExpired(yesterday), status: "expired" });
    expect(codeExpired("2026-11-01")).toBe("This code could be redeemed until Nov 1, 2026. It has expired.");

    const ended = await oneCode({ endsOn: addDays(today(), -2), redeemBy: addDays(today(), 30) });
    expect(await errorBody(redeem(coordinator.cookie, { code: ended.code }))).toMatchObject({
      error: codeExpired(addDays(today(), -2)),
      status: "expired",
    });
    // The redeem-by day itself is still a day to redeem on.
    const lastDay = await oneCode({ redeemBy: today() });
    expect((await redeem(coordinator.cookie, { code: lastDay.code })).status).toBe(200);
    expect(await licenceOf(school.id, late.book.id)).toBeUndefined();
  });

  it("withdrawn, the code or its whole batch: 409, status revoked, and it stays unredeemed", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const one = await oneCode();
    await db()
      .update(codes)
      .set({ revokedAt: Date.now() })
      .where(eq(codes.id, (await storedCode(one.code))!.id));
    const whole = await oneCode();
    await db().update(codeBatches).set({ revokedAt: Date.now() }).where(eq(codeBatches.id, whole.batch.id));
    for (const { code, book } of [one, whole]) {
      const answer = await redeem(coordinator.cookie, { code });
      expect(answer.status).toBe(409);
      expect(await errorBody(answer)).toMatchObject({ error: CODE_REVOKED, status: "revoked" });
      expect(await storedCode(code)).toMatchObject({ redeemedAt: null, schoolId: null, redemption: null });
      expect(await licenceOf(school.id, book.id)).toBeUndefined();
    }
  });

  it("whose books are gone from the catalogue: 409, status unavailable", async () => {
    const { coordinator } = await schoolWithCoordinator();
    const { book, code } = await oneCode();
    await db().delete(books).where(eq(books.id, book.id));
    const answer = await redeem(coordinator.cookie, { code });
    expect(answer.status).toBe(409);
    expect(await errorBody(answer)).toMatchObject({ error: CODE_UNAVAILABLE, status: "unavailable" });
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null });
  });
});

describe("who may redeem for which school", () => {
  it("nobody signed in: 401; an admin's cookie on a school's host is no admin there: 401 too", async () => {
    const { code } = await oneCode();
    expect((await redeem(null, { code })).status).toBe(401);
    const school = await createSchool();
    const onHost = await api(`https://${school.slug}.lectern.test/api/codes/redeem`, {
      body: { code, schoolId: school.id },
      cookie: admin.cookie,
      ip: `198.51.100.${crypto.randomUUID()}`,
    });
    expect(onHost.status).toBe(401);
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null });
  });

  it("a plain teacher of the school: 403, the coordinators' sentence", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const { book, code } = await oneCode();
    const answer = await redeem(teacher.cookie, { code });
    expect(answer.status).toBe(403);
    expect(await errorBody(answer)).toMatchObject({ error: NOT_COORDINATOR });
    expect(await licenceOf(school.id, book.id)).toBeUndefined();
  });

  it("a coordinator of school A for school B: 403 by schoolId, 403 on B's host; nothing redeemed", async () => {
    const a = await schoolWithCoordinator();
    const b = await createSchool();
    const { book, code } = await oneCode();
    const named = await redeem(a.coordinator.cookie, { code, schoolId: b.id });
    expect(named.status).toBe(403);
    expect(await errorBody(named)).toMatchObject({ error: OWN_SCHOOL_ONLY });
    // As a form would send it, and a malformed id: refused the same.
    for (const schoolId of [String(b.id), "1e3"]) expect((await redeem(a.coordinator.cookie, { code, schoolId })).status).toBe(403);

    const onHost = await api(`https://${b.slug}.lectern.test/api/codes/redeem`, {
      body: { code },
      cookie: a.coordinator.cookie,
      ip: `198.51.100.${crypto.randomUUID()}`,
    });
    expect(onHost.status).toBe(403);
    expect(await errorBody(onHost)).toMatchObject({ error: OWN_SCHOOL_ONLY });
    expect(await storedCode(code)).toMatchObject({ redeemedAt: null });
    expect(await licenceOf(b.id, book.id)).toBeUndefined();

    // Their own school's id, and their own school's host, are theirs.
    expect((await redeem(a.coordinator.cookie, { code, schoolId: a.school.id })).status).toBe(200);
    const second = await oneCode();
    const ownHost = await api(`https://${a.school.slug}.lectern.test/api/codes/redeem`, {
      body: { code: second.code },
      cookie: a.coordinator.cookie,
      ip: `198.51.100.${crypto.randomUUID()}`,
    });
    expect(ownHost.status).toBe(200);
  });

  it("an admin: the school named (400 without one, 404 for none such), and the answer names it", async () => {
    const school = await createSchool();
    const { book, code } = await oneCode({ days: 30, seats: 5 });
    const without = await redeem(admin.cookie, { code });
    expect(without.status).toBe(400);
    expect(await errorBody(without)).toMatchObject({ error: SAY_WHICH_SCHOOL, field: "schoolId" });
    const unknown = await redeem(admin.cookie, { code, schoolId: 99_999_999 });
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ error: "School not found" });

    const { redeemed } = await okBody(redeem(admin.cookie, { code, schoolId: String(school.id) }));
    const endsOn = addDays(today(), 29);
    expect(redeemed.message).toBe(
      `Code redeemed: “${book.title}” is licensed to ${school.name} until ${formatDay(endsOn)}, for 5 readers at once.`,
    );
    expect(await licenceOf(school.id, book.id)).toMatchObject({ startsOn: today(), endsOn, seats: 5 });
    // Audited under the admin's own name.
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "code.redeem"), eq(auditLog.entityId, String(school.id))));
    expect(entry).toMatchObject({ adminId: admin.admin.id, adminEmail: admin.admin.email, entityType: "school" });
  });

  it("an admin who is also a coordinator: the admin's path when a school is named, else the coordinator's", async () => {
    const { school, coordinator } = await schoolWithCoordinator();
    const other = await createSchool();
    const cookie = `${admin.cookie}; ${coordinator.cookie}`;
    const first = await oneCode();
    const own = await okBody(redeem(cookie, { code: first.code }));
    expect(own.redeemed.schoolId).toBe(school.id);
    expect(own.redeemed.message).toContain("licensed to your school");
    const second = await oneCode();
    const forOther = await okBody(redeem(cookie, { code: second.code, schoolId: other.id }));
    expect(forOther.redeemed.schoolId).toBe(other.id);
    expect(await licenceOf(other.id, second.book.id)).toBeDefined();
  });

  it("a coordinator an admin un-named is a plain teacher at their next try", async () => {
    const school = await createSchool();
    const coordinator = await coordinatorOf(school);
    const { teachers } = await import("../../workers/db/schema.ts");
    await db().update(teachers).set({ coordinator: false }).where(eq(teachers.id, coordinator.teacher.id));
    const { code } = await oneCode();
    expect((await redeem(coordinator.cookie, { code })).status).toBe(403);
  });
});
