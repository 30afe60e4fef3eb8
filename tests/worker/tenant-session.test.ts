import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getTeacherSession } from "../../workers/auth/sessions.ts";
import { sessions } from "../../workers/db/schema.ts";
import { resolveRequestTenant } from "../../workers/http/pipeline.ts";
import { createSchool, db, ORIGIN, signedInTeacher } from "./helpers.ts";

// The Worker reads a teacher's session with the tenant's school, in one statement.
const MAIN = { kind: "main" } as const;
const page = (path: string, cookie?: string) => new Request(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("tenant and teacher session in one lookup", () => {
  it("hands on the session of a teacher of this school", async () => {
    const school = await createSchool();
    const { teacher, cookie } = await signedInTeacher(school);
    const path = `/schools/${school.slug}/dashboard`;
    const tenant = await resolveRequestTenant(db(), MAIN, path, page(path, cookie));
    expect(tenant.school?.id).toBe(school.id);
    expect(tenant.teacherSession?.row?.teacher.id).toBe(teacher.id);
    const session = await getTeacherSession(db(), page(path, cookie), Date.now(), tenant.teacherSession);
    expect(session?.teacher.id).toBe(teacher.id);
    expect(session?.school.id).toBe(school.id);
  });

  it("finds the school but no session for a teacher of another school", async () => {
    const [mine, other] = [await createSchool(), await createSchool()];
    const { cookie } = await signedInTeacher(mine);
    const path = `/schools/${other.slug}/dashboard`;
    const tenant = await resolveRequestTenant(db(), MAIN, path, page(path, cookie));
    expect(tenant.school?.id).toBe(other.id);
    expect(tenant.teacherSession?.row).toBeNull();
    expect(await getTeacherSession(db(), page(path, cookie), Date.now(), tenant.teacherSession)).toBeNull();
  });

  it("finds neither for an unknown school, and no session without a cookie", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const unknown = await resolveRequestTenant(db(), MAIN, "/schools/no-such-school", page("/schools/no-such-school", cookie));
    expect(unknown.school).toBeNull();
    expect(unknown.teacherSession).toBeUndefined();
    const anonymous = await resolveRequestTenant(db(), MAIN, `/${school.slug}`, page(`/${school.slug}`));
    expect(anonymous.school?.id).toBe(school.id);
    expect(anonymous.teacherSession).toBeUndefined();
  });

  it("still signs out an expired session that was read with the school", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const path = `/schools/${school.slug}/dashboard`;
    const tenant = await resolveRequestTenant(db(), MAIN, path, page(path, cookie));
    const tokenHash = tenant.teacherSession!.tokenHash;
    const later = tenant.teacherSession!.row!.session.expiresAt + 1;
    expect(await getTeacherSession(db(), page(path, cookie), later, tenant.teacherSession)).toBeNull();
    expect(await db().select().from(sessions).where(eq(sessions.tokenHash, tokenHash))).toEqual([]);
  });
});
