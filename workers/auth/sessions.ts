import { and, eq, ne, sql } from "drizzle-orm";
import { type Db, preparedQuery } from "../db/client.ts";
import { admins, type School, schools, sessions, type Teacher, teachers } from "../db/schema.ts";
import { randomToken, sha256Hex } from "./tokens.ts";

export type SessionKind = "teacher" | "admin";

/**
 * Lifetimes (see docs/decisions/0006-teacher-accounts.md). Teachers: signed out after 3 days
 * without use and after 14 days in any case. Admins: 2.5 hours in any case, as the spec's
 * auto-logout says, and after 1 hour without use.
 */
export const SESSION_LIFETIME: Record<SessionKind, { idleMs: number; absoluteMs: number }> = {
  teacher: { idleMs: 3 * 24 * 3600_000, absoluteMs: 14 * 24 * 3600_000 },
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

export interface NewSession {
  kind: SessionKind;
  teacherId?: number;
  adminId?: number;
  schoolId?: number;
  /** What the account page shows for the session ("Chrome on Windows"), from describeDevice. */
  device?: string | null;
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
    teacherId: owner.teacherId ?? null,
    adminId: owner.adminId ?? null,
    schoolId: owner.schoolId ?? null,
    device: owner.device ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_LIFETIME[owner.kind].absoluteMs,
  });
  return { token, insert };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, await sha256Hex(token)));
}

/** Signs a teacher out everywhere, except (optionally) the session making the change. */
export function revokeTeacherSessions(db: Db, teacherId: number, keepTokenHash?: string) {
  return db
    .delete(sessions)
    .where(
      keepTokenHash ? and(eq(sessions.teacherId, teacherId), ne(sessions.tokenHash, keepTokenHash)) : eq(sessions.teacherId, teacherId),
    );
}

/**
 * Ends a teacher's oldest sessions beyond their school's limit (schools.session_limit). It runs in
 * the sign-in's batch after the new session's insert, so the new one is always among those kept.
 */
export function endSessionsBeyondLimit(db: Db, teacherId: number, schoolId: number) {
  return db.delete(sessions).where(
    and(
      eq(sessions.teacherId, teacherId),
      sql`${sessions.tokenHash} NOT IN (
        SELECT token_hash FROM sessions WHERE teacher_id = ${teacherId}
        ORDER BY created_at DESC, rowid DESC
        LIMIT (SELECT max(session_limit, 1) FROM schools WHERE id = ${schoolId}))`,
    ),
  );
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
 * The teacher behind this request's cookie, with their school (or nothing: no cookie, unknown,
 * expired or revoked), and whether it was a teacher an admin has disabled, so the school's pages
 * can tell them why they are signed out. Disabling ends a teacher's sessions by expiring them
 * (workers/teachers/management.ts): the rows stay until swept, and the lookup reads the teacher's
 * state before the expiry. The request pipeline calls it once per request (workers/http/request-context.ts).
 */
export async function readTeacherCookie(db: Db, request: Request, now = Date.now()): Promise<TeacherCookie> {
  const token = readSessionToken(request, "teacher");
  if (!token) return { session: null, disabledSchoolId: null };
  const tokenHash = await sha256Hex(token);
  const [row] = await teacherSessionByHash(db).all({ tokenHash });
  if (!row) return { session: null, disabledSchoolId: null };
  if (row.disabled) return { session: null, disabledSchoolId: row.school.id };
  if (!(await isLive(db, row.session, now))) return { session: null, disabledSchoolId: null };
  return { session: { tokenHash, teacher: row.teacher, school: row.school }, disabledSchoolId: null };
}

/** The live teacher session behind this request's cookie, or null. */
export async function getTeacherSession(db: Db, request: Request, now = Date.now()): Promise<TeacherSession | null> {
  return (await readTeacherCookie(db, request, now)).session;
}

const TEACHER_COLUMNS = { id: teachers.id, name: teachers.name, email: teachers.email, schoolId: teachers.schoolId };

// Every request with a teacher cookie looks its session up, so the query is prepared once.
const teacherSessionByHash = preparedQuery((db) =>
  db
    .select({ session: sessions, teacher: TEACHER_COLUMNS, disabled: teachers.disabled, school: schools })
    .from(sessions)
    .innerJoin(teachers, eq(teachers.id, sessions.teacherId))
    .innerJoin(schools, eq(schools.id, teachers.schoolId))
    .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), eq(sessions.kind, "teacher")))
    .limit(1)
    .prepare(),
);

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
 * How long an ended session's row is kept: a teacher an admin disabled who comes back within it,
 * cookie in hand, is told that the account was disabled rather than only that they are signed out.
 */
export const ENDED_SESSION_KEPT_MS = 14 * 24 * 3600_000;

/** Removes sessions that ended a while ago; run opportunistically so the table does not grow without bound. */
export function sweepExpiredSessions(db: Db, now = Date.now()) {
  return db.delete(sessions).where(sql`${sessions.expiresAt} <= ${now - ENDED_SESSION_KEPT_MS}`);
}
