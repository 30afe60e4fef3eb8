import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAdminCommand } from "../../workers/admins/commands.ts";
import { admins, schools, teachers } from "../../workers/db/schema.ts";
import { failureBody, failureHeaders, failureStatus } from "../../workers/http/failure-status.ts";
import { resolveRequestContext } from "../../workers/http/request-context.ts";
import { execute } from "../../workers/kernel/command.ts";
import { createSchoolCommand } from "../../workers/schools/commands.ts";
import { updateAccountCommand } from "../../workers/teachers/own-account-commands.ts";
import { createSchool, db, ORIGIN, signedInAdmin, signedInTeacher } from "./helpers.ts";

// A command (docs/decisions/0027) parses its input, names its actor from the request context and
// checks who may run it by itself, whichever adapter runs it.

const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const requestWith = (cookie?: string) =>
  new Request(`${ORIGIN}/admin/add-school`, { method: "POST", headers: cookie ? { Cookie: cookie, Origin: ORIGIN } : { Origin: ORIGIN } });
const contextOf = (request: Request) => resolveRequestContext(request, env, ctx, null);

const school = (slug: string) => ({
  schoolName: "Command School",
  slug,
  address1: "1 Main Street",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  email: "office@command.example",
  teacherLimit: 5,
});

describe("a command", () => {
  it("creates with the signed-in admin as its actor", async () => {
    const { admin, cookie } = await signedInAdmin();
    const request = requestWith(cookie);
    const slug = `command-${crypto.randomUUID().slice(0, 8)}`;
    const outcome = await execute(createSchoolCommand, await contextOf(request), school(slug), request);
    expect(outcome.ok && outcome.value.school.slug).toBe(slug);
    const audit = await env.DB.prepare("SELECT admin_id FROM audit_log WHERE action = 'school.create' ORDER BY id DESC LIMIT 1").first<{
      admin_id: number;
    }>();
    expect(audit?.admin_id).toBe(admin.id);
  });

  it("refuses to run without a signed-in admin, whatever a route's guard did, and writes nothing", async () => {
    const request = requestWith();
    const slug = `command-${crypto.randomUUID().slice(0, 8)}`;
    const outcome = await execute(createSchoolCommand, await contextOf(request), school(slug), request);
    expect(outcome).toEqual({ ok: false, failure: { kind: "refused", error: "Admin sign-in required" } });
    expect(await db().select().from(schools).where(eq(schools.slug, slug))).toEqual([]);
  });

  it("runs a superadmin's command only for a superadmin", async () => {
    const { cookie } = await signedInAdmin("admin");
    const request = requestWith(cookie);
    const email = `made-${crypto.randomUUID().slice(0, 8)}@lectern.test`;
    const input = { name: "Made By Admin", email, password: "a long enough passphrase", role: "admin" };
    const outcome = await execute(createAdminCommand, await contextOf(request), input, request);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect([outcome.failure.kind, failureStatus(outcome.failure)]).toEqual(["refused", 403]);
    expect(await db().select().from(admins).where(eq(admins.email, email))).toEqual([]);
  });

  it("parses its input with the generic checks: a control character in any field is refused, with the field", async () => {
    const { cookie } = await signedInAdmin();
    const request = requestWith(cookie);
    const outcome = await execute(
      createSchoolCommand,
      await contextOf(request),
      { ...school("ctl-school"), city: "Spring\u0000field" },
      request,
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure).toMatchObject({ kind: "invalid", field: "city" });
  });

  it("runs a teacher's command for the signed-in teacher only: an id in the input names no one else", async () => {
    const school = await createSchool();
    const { teacher, cookie } = await signedInTeacher(school, "Own Name");
    const { teacher: other } = await signedInTeacher(school, "Other Name");
    const request = new Request(`${ORIGIN}/schools/${school.slug}/account`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN },
    });
    const input = { name: "Renamed Self", mobile: "5551234567", teacherId: other.id, schoolId: school.id + 1 };
    const outcome = await execute(updateAccountCommand, await contextOf(request), input, request);
    expect(outcome.ok ? null : outcome.failure).toBeNull();
    const names = await db().select({ id: teachers.id, name: teachers.name }).from(teachers).where(eq(teachers.schoolId, school.id));
    expect(names.find((t) => t.id === teacher.id)?.name).toBe("Renamed Self");
    expect(names.find((t) => t.id === other.id)?.name).toBe("Other Name");
    // Without a teacher's session nothing runs.
    const anonymous = new Request(`${ORIGIN}/schools/${school.slug}/account`, { method: "POST", headers: { Origin: ORIGIN } });
    expect(await execute(updateAccountCommand, await contextOf(anonymous), input, anonymous)).toEqual({
      ok: false,
      failure: { kind: "refused", error: "Not signed in" },
    });
  });
});

describe("a failure's answer (workers/http/failure-status.ts)", () => {
  it("carries its details, which cannot replace its sentence, field or rows; Retry-After is whole seconds, at least 1", () => {
    const details = { status: "no-seat", error: "forged", field: "forged", rows: "forged" };
    const failure = { kind: "conflict", error: "No seat", field: "seats", rows: [1], retryAfterSeconds: 0.2, details } as const;
    expect(failureBody(failure)).toEqual({ status: "no-seat", error: "No seat", field: "seats", rows: [1] });
    expect(failureHeaders(failure)).toEqual({ "Retry-After": "1" });
    expect(failureHeaders({ ...failure, retryAfterSeconds: 60.5 })).toEqual({ "Retry-After": "61" });
    expect(failureBody({ kind: "invalid", error: "Bad", field: "" })).toEqual({ error: "Bad" });
    expect(failureHeaders({ kind: "invalid", error: "Bad" })).toEqual({});
  });
});
