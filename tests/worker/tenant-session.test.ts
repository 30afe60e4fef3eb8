import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../workers/auth/tokens.ts";
import { resolveRequestContext } from "../../workers/http/request-context.ts";
import { api, createSchool, ORIGIN, objectSessions, signedInAdmin, signedInTeacher } from "./helpers.ts";

// The pipeline resolves tenant and sessions once per request, and checks them there.
const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;
const resolve = (path: string, cookie?: string, now?: number, host = ORIGIN) =>
  resolveRequestContext(new Request(`${host}${path}`, { headers: cookie ? { Cookie: cookie } : {} }), env, ctx, null, now);

describe("the request context", () => {
  it("hands on the teacher of this school, read with the school", async () => {
    const school = await createSchool();
    const { teacher, cookie } = await signedInTeacher(school);
    const context = await resolve(`/schools/${school.slug}/dashboard`, cookie);
    expect(context.tenant.school?.id).toBe(school.id);
    expect(context.teacher?.teacher.id).toBe(teacher.id);
    expect(context.teacher?.school.id).toBe(school.id);
    expect(context.teacherOfOtherSchool).toBe(false);
  });

  it("finds the school but no teacher for a teacher of another school", async () => {
    const [mine, other] = [await createSchool(), await createSchool()];
    const { cookie } = await signedInTeacher(mine);
    for (const path of [`/schools/${other.slug}/dashboard`, `/${other.slug}`, `/api/schools/slug/${other.slug}/books`]) {
      const context = await resolve(path, cookie);
      expect(context.tenant.school?.id, path).toBe(other.id);
      expect(context.teacher, path).toBeNull();
      expect(context.teacherOfOtherSchool, path).toBe(true);
    }
    // On another school's host, whatever the path.
    const onHost = await resolve("/api/books/1/pages", cookie, undefined, `https://${other.slug}.lectern.test`);
    expect(onHost.tenant.school?.id).toBe(other.id);
    expect(onHost.teacher).toBeNull();
  });

  it("names no school when an API path on a school's host names another school", async () => {
    const [mine, other] = [await createSchool(), await createSchool()];
    const { cookie } = await signedInTeacher(mine);
    const host = `https://${mine.slug}.lectern.test`;
    const crossed = await resolve(`/api/schools/slug/${other.slug}/books`, cookie, undefined, host);
    expect(crossed.tenant.school).toBeNull();
    expect(crossed.teacher).toBeNull();
    const own = await resolve(`/api/schools/slug/${mine.slug}/books`, cookie, undefined, host);
    expect(own.teacher?.school.id).toBe(mine.id);
  });

  it("takes the teacher's own school where the request names none", async () => {
    const school = await createSchool();
    const { teacher, cookie } = await signedInTeacher(school);
    const context = await resolve("/api/books/1/pages", cookie);
    expect(context.tenant.school).toBeNull();
    expect(context.teacher?.teacher.id).toBe(teacher.id);
  });

  it("finds no school for an unknown slug, and no teacher without a cookie", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const unknown = await resolve("/schools/no-such-school", cookie);
    expect(unknown.tenant.school).toBeNull();
    expect(unknown.teacher).toBeNull();
    const anonymous = await resolve(`/${school.slug}`);
    expect(anonymous.tenant.school?.id).toBe(school.id);
    expect(anonymous.teacher).toBeNull();
    expect(anonymous.admin).toBeNull();
  });

  it("carries no admin on a school's host, whatever the cookie", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    expect((await resolve("/api/books", cookie)).admin).not.toBeNull();
    expect((await resolve("/api/books", cookie, undefined, `https://${school.slug}.lectern.test`)).admin).toBeNull();
    // Raw: the typed client calls our own origin, not a school's host.
    expect((await api(`https://${school.slug}.lectern.test/api/books`, { cookie })).status).toBe(401);
  });

  it("signs out an expired session when it reads it", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const tokenHash = await sha256Hex(cookie.split(".")[1]!);
    const [row] = (await objectSessions(school.id)).filter((s) => s.token_hash === tokenHash);
    const context = await resolve(`/schools/${school.slug}/dashboard`, cookie, row!.expires_at + 1);
    expect(context.teacher).toBeNull();
    expect(await objectSessions(school.id)).toEqual([]);
  });
});
