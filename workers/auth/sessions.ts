import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { admins, type School, schools, sessions, type Teacher } from "../db/schema.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { ENDED_SESSION_KEPT_MS, TEACHER_SESSION_LIFETIME } from "../school-object/policy.ts";
import { randomToken, sha256Hex } from "./tokens.ts";

export type SessionKind = "teacher" | "admin";

/**
 * Lifetimes (see docs/decisions/0006-teacher-accounts.md). Teachers: the school object's policy
 * (workers/school-object/policy.ts), which holds their sessions. Admins: 2.5 hours in any case, as
 * the spec's auto-logout says, and after 1 hour without use.
 */
export const SESSION_LIFETIME: Record<SessionKind, { idleMs: number; absoluteMs: number }> = {
  teacher: TEACHER_SESSION_LIFETIME,
  admin: { idleMs: 3600_000, absoluteMs: 9_000_000 },
};

// Writing last-seen on every request would turn every page view into a D1 write.
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export function sessionCookieName(kind: SessionKind, secure: boolean): string {
  return secure ? `__Host-lectern_${kind}` : `lectern_${kind}`;
}

function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

export function readSessionToken(request: Request, kind: SessionKind): string | null {
  const name = sessionCookieName(kind, isSecure(request));
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || null;
  }
  return null;
}

/** Host-only, HttpOnly, SameSite=Lax; `__Host-` and Secure whenever served over https. */
export function sessionCookie(request: Request, kind: SessionKind, token: string | null): string {
  const secure = isSecure(request);
  const maxAge = token ? Math.floor(SESSION_LIFETIME[kind].absoluteMs / 1000) : 0;
  return [
    `${sessionCookieName(kind, secure)}=${token ?? ""}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAge}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** A new admin session's owner (teachers' sessions live in their school's object: openTeacherSession). */
export interface NewSession {
  kind: "admin";
  adminId: number;
}

/** A fresh token for the cookie, and the hash that is all the database keeps of it. */
export async function newSessionToken(): Promise<{ token: string; tokenHash: string }> {
  const token = randomToken();
  return { token, tokenHash: await sha256Hex(token) };
}

/** The insert for a new session, to run inside the caller's batch; the token goes to the cookie. */
export async function prepareSession(db: Db, owner: NewSession, now = Date.now()) {
  const { token, tokenHash } = await newSessionToken();
  const insert = db.insert(sessions).values({
    tokenHash,
    kind: owner.kind,
    adminId: owner.adminId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_LIFETIME[owner.kind].absoluteMs,
  });
  return { token, insert };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, await sha256Hex(token)));
}

export interface TeacherSession {
  tokenHash: string;
  teacher: Pick<Teacher, "id" | "name" | "email" | "schoolId">;
  school: School;
}

/** What a request's teacher cookie is: a live session, the session of a teacher an admin disabled, or nothing. */
export interface TeacherCookie {
  session: TeacherSession | null;
  /** When an admin disabled the teacher whose session this was: that teacher's school; else null. */
  disabledSchoolId: number | null;
}

/**
 * A teacher's cookie names the school whose object holds the session (docs/decisions/0024):
 * `{schoolId}.{token}`. The object is then found without asking D1; the school id is no secret
 * (the school's pages name it anyway), and a token is only ever valid in its own school's object.
 */
export function teacherCookieValue(schoolId: number, token: string): string {
  return `${schoolId}.${token}`;
}

/** The session a teacher cookie names: the school's id and the token's hash; null without one. */
export interface TeacherCookieRef {
  schoolId: number;
  tokenHash: string;
}

const TEACHER_COOKIE = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{20,100})$/;
const LEGACY_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The school and token hash of this request's teacher cookie. A cookie from before the school
 * objects (a bare token) finds its school in D1's sessions table, where those sessions' rows stay
 * until they expire: one D1 read, for at most a session's lifetime after the change.
 */
export async function readTeacherCookieRef(db: Db, request: Request): Promise<TeacherCookieRef | null> {
  const value = readSessionToken(request, "teacher");
  if (!value) return null;
  const match = TEACHER_COOKIE.exec(value);
  if (match) return { schoolId: Number(match[1]), tokenHash: await sha256Hex(match[2]!) };
  if (!LEGACY_TOKEN.test(value)) return null;
  const tokenHash = await sha256Hex(value);
  const [row] = await db.all<{ schoolId: number }>(
    sql`SELECT t.school_id AS schoolId FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = ${tokenHash} AND s.kind = 'teacher'`,
  );
  return row ? { schoolId: row.schoolId, tokenHash } : null;
}

/** The token hash of a teacher cookie value (either form), for the sign-out that ends it. */
export async function teacherTokenHash(value: string): Promise<string> {
  return sha256Hex(TEACHER_COOKIE.exec(value)?.[2] ?? value);
}

/**
 * The teacher behind this request's cookie, with their school (or nothing: no cookie, unknown,
 * expired or revoked), and whether it was a teacher an admin has disabled, so the school's pages
 * can tell them why they are signed out. The session is checked by the school's object; the
 * school's row comes from `school` when the caller has it already (the request's tenant), else
 * from D1. The request pipeline calls it once per request (workers/http/request-context.ts).
 */
export async function readTeacherCookie(
  db: Db,
  hot: HotState,
  request: Request,
  now = Date.now(),
  knownSchool: (id: number) => Promise<School | null> = (id) => findSchoolById(db, id),
): Promise<TeacherCookie> {
  const ref = await readTeacherCookieRef(db, request);
  if (!ref) return { session: null, disabledSchoolId: null };
  return checkTeacherSession(hot, ref, now, knownSchool);
}

/** The live teacher session behind this request's cookie, or null. */
export async function getTeacherSession(db: Db, hot: HotState, request: Request, now = Date.now()): Promise<TeacherSession | null> {
  return (await readTeacherCookie(db, hot, request, now)).session;
}

/** Checks a cookie's session in its school's object; see readTeacherCookie. */
async function checkTeacherSession(
  hot: HotState,
  ref: TeacherCookieRef,
  now: number,
  knownSchool: (id: number) => Promise<School | null>,
): Promise<TeacherCookie> {
  const [check, school] = await Promise.all([
    schoolObject(hot, ref.schoolId).checkSession(ref.schoolId, ref.tokenHash, now),
    knownSchool(ref.schoolId),
  ]);
  if (!school) return { session: null, disabledSchoolId: null };
  // A teacher an admin disabled is told so (signed-out.ts): the object's failure says `disabled`.
  if (!check.ok) return { session: null, disabledSchoolId: check.failure.details?.disabled ? school.id : null };
  return { session: { tokenHash: ref.tokenHash, teacher: { ...check.value, schoolId: school.id }, school }, disabledSchoolId: null };
}

export type { HotState } from "../school-object/objects.ts";

/**
 * Signs a teacher in: a new session in their school's object (which ends their oldest beyond the
 * school's session limit); the cookie value, or null when the object knows the teacher disabled.
 */
export async function openTeacherSession(
  hot: HotState,
  school: Pick<School, "id" | "sessionLimit">,
  teacher: { id: number; name: string; email: string },
  device: string | null,
  now = Date.now(),
): Promise<string | null> {
  const { token, tokenHash } = await newSessionToken();
  const opened = await schoolObject(hot, school.id).openSession(school.id, {
    tokenHash,
    teacher,
    device,
    sessionLimit: school.sessionLimit,
    now,
  });
  return opened.ok ? teacherCookieValue(school.id, token) : null;
}

/** Signs a teacher cookie out (the sign-out button); nothing when it names no session. */
export async function endTeacherCookieSession(db: Db, hot: HotState, request: Request): Promise<void> {
  const ref = await readTeacherCookieRef(db, request);
  if (ref) await schoolObject(hot, ref.schoolId).endSession(ref.schoolId, ref.tokenHash);
}

export async function findSchoolById(db: Db, id: number): Promise<School | null> {
  const [school] = await db.select().from(schools).where(eq(schools.id, id)).limit(1);
  return school ?? null;
}

export interface AdminSession {
  tokenHash: string;
  admin: { id: number; email: string; name: string; role: "admin" | "superadmin" };
  expiresAt: number;
}

export async function getAdminSession(db: Db, request: Request, now = Date.now()): Promise<AdminSession | null> {
  const token = readSessionToken(request, "admin");
  if (!token) return null;
  const tokenHash = await sha256Hex(token);
  const [row] = await db
    .select({
      session: sessions,
      admin: { id: admins.id, email: admins.email, name: admins.name, role: admins.role, disabled: admins.disabled },
    })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.kind, "admin")))
    .limit(1);
  if (!row || row.admin.disabled || !(await isLive(db, row.session, now))) return null;
  const { disabled: _disabled, ...admin } = row.admin;
  return { tokenHash, admin, expiresAt: row.session.expiresAt };
}

/** Checks both expiries; deletes a dead session and refreshes last-seen on a live one now and then. */
async function isLive(db: Db, session: typeof sessions.$inferSelect, now: number): Promise<boolean> {
  const idleMs = SESSION_LIFETIME[session.kind].idleMs;
  if (session.expiresAt <= now || session.lastSeenAt + idleMs <= now) {
    await db.delete(sessions).where(eq(sessions.tokenHash, session.tokenHash));
    return false;
  }
  if (now - session.lastSeenAt > LAST_SEEN_RESOLUTION_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, session.tokenHash));
  }
  return true;
}

/**
 * Removes sessions that ended a while ago (kept ENDED_SESSION_KEPT_MS, as the school object keeps
 * its own); run opportunistically so the table does not grow without bound.
 */
export function sweepExpiredSessions(db: Db, now = Date.now()) {
  return db.delete(sessions).where(sql`${sessions.expiresAt} <= ${now - ENDED_SESSION_KEPT_MS}`);
}
