import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { checkLogin } from "../auth/login-guard.ts";
import { hashPassword } from "../auth/password.ts";
import type { HotState } from "../auth/sessions.ts";
import { sha256Hex } from "../auth/tokens.ts";
import type { Db } from "../db/client.ts";
import { teachers } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { schoolObject } from "../school-object/objects.ts";
import { MobileSchema, PasswordSchema, PersonNameSchema } from "../validation/schemas.ts";

/**
 * A signed-in teacher's own account (docs/decisions/0017-teacher-account.md): name and mobile,
 * password, and the sessions they are signed in with. Every function takes the teacher's id from
 * the checked session (never from the client), so a teacher can only ever see or change their own.
 * The account page's loader and actions and /api/teacher/account... call these same functions.
 */

export const AccountUpdateSchema = z.object({ name: PersonNameSchema, mobile: MobileSchema });
export type AccountUpdate = z.infer<typeof AccountUpdateSchema>;

export const PasswordChangeSchema = z.object({
  // Any length: it is compared, not set (a password from before today's rules must still work).
  currentPassword: z
    .string({ error: "Please enter your current password" })
    .min(1, "Please enter your current password")
    .max(1024, "Your current password is not correct."),
  newPassword: PasswordSchema,
});
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/** A session id the client may see and send back: not the token hash that is the row's key (see sessionId). */
export const SessionIdSchema = z.string().regex(/^[0-9a-f]{32}$/, "This session has already ended.");

/** The teacher an account call is about, from the checked session: their school's object holds their sessions. */
export interface TeacherRef {
  schoolId: number;
  teacherId: number;
}

/** What every change to the account answers: the sentence the teacher reads, and what changed. */
export type AccountChange<T> = { message: string } & T;

export const WRONG_CURRENT_PASSWORD = "Your current password is not correct.";
export const SAME_PASSWORD = "Your new password must be different from your current password.";
export const SESSION_GONE = "This session has already ended.";
const TEACHER_GONE = failure("not-found", "Your account could not be found.");

/** What the account page shows of the teacher. */
export interface TeacherAccount {
  name: string;
  email: string;
  mobile: string;
}

export async function getTeacherAccount(db: Db, teacherId: number): Promise<TeacherAccount | null> {
  const [row] = await db
    .select({ name: teachers.name, email: teachers.email, mobile: teachers.mobile })
    .from(teachers)
    .where(eq(teachers.id, teacherId));
  return row ?? null;
}

/** Saves name and mobile (already checked by AccountUpdateSchema: the same rules as registration). */
export async function updateTeacherAccount(
  db: Db,
  hot: HotState,
  who: TeacherRef,
  input: AccountUpdate,
): Promise<Outcome<AccountChange<{ account: TeacherAccount }>>> {
  const [account] = await db
    .update(teachers)
    .set({ name: input.name, mobile: input.mobile })
    .where(eq(teachers.id, who.teacherId))
    .returning({ name: teachers.name, email: teachers.email, mobile: teachers.mobile });
  if (!account) return TEACHER_GONE;
  // The school's object stamps the name on the teacher's pages.
  await schoolObject(hot, who.schoolId).updateTeacher(who.schoolId, { id: who.teacherId, name: account.name, email: account.email });
  return done({ account, message: "Your name and mobile number have been saved." });
}

/**
 * Sets a new password once the current one is right. The current password is checked like a
 * sign-in (checkLogin: the same throttle keys, so the page is no way around the login's limits).
 * On success every other session of the teacher ends, in the school's object and before D1 is
 * written (a failure in between leaves the teacher signed out elsewhere with the old password,
 * never signed in elsewhere with the new one); the session making the change (`keepTokenHash`)
 * stays signed in.
 */
export async function changeTeacherPassword(
  db: Db,
  hot: HotState,
  who: TeacherRef & { keepTokenHash: string; clientIp: string },
  input: PasswordChange,
  now = Date.now(),
): Promise<Outcome<AccountChange<{ sessionsEnded: number }>>> {
  const [teacher] = await db
    .select({ email: teachers.email, schoolId: teachers.schoolId, passwordHash: teachers.passwordHash })
    .from(teachers)
    .where(eq(teachers.id, who.teacherId));
  if (!teacher) return TEACHER_GONE;
  const check = await checkLogin(
    db,
    // The login's own keys (scope: the school, the address): wrong tries here and there add up.
    {
      scope: String(teacher.schoolId),
      email: teacher.email,
      clientIp: who.clientIp,
      password: input.currentPassword,
      storedHash: teacher.passwordHash,
    },
    now,
  );
  // A wrong password here is wrong input on the form (invalid), not a failed sign-in; a throttle stays one.
  if (!check.ok)
    return check.failure.kind === "throttled" ? failure("throttled", check.failure.error) : failure("invalid", WRONG_CURRENT_PASSWORD);
  if (input.newPassword === input.currentPassword) return failure("invalid", SAME_PASSWORD);

  const passwordHash = await hashPassword(input.newPassword);
  const n = await schoolObject(hot, who.schoolId).endTeacherSessions(who.schoolId, who.teacherId, who.keepTokenHash);
  // Only over the hash just checked: of two changes racing, one wins and the other is told so.
  const updated = await db
    .update(teachers)
    .set({ passwordHash })
    .where(and(eq(teachers.id, who.teacherId), eq(teachers.passwordHash, teacher.passwordHash)))
    .returning({ id: teachers.id });
  if (!updated.length) return failure("invalid", WRONG_CURRENT_PASSWORD);
  const message =
    n === 0
      ? "Your password has been changed."
      : `Your password has been changed, and you have been signed out on ${n} other device${n === 1 ? "" : "s"}.`;
  return done({ sessionsEnded: n, message });
}

/** One of the teacher's live sessions, as the page and the API show it. */
export interface AccountSession {
  /** Opaque: derived from the token hash, never the hash itself (sessionId). */
  id: string;
  device: string | null;
  signedInAt: number;
  lastSeenAt: number;
  current: boolean;
}

/**
 * The id a session goes by outside the server: SHA-256 of its token hash, 128 bits of it. The
 * token hash is the row's key and what a cookie is checked against; it never leaves the server,
 * so nothing the client sees or sends is one step from a session. A teacher has a few sessions
 * (the school's session limit), so matching an id means hashing a few hashes.
 */
export async function sessionId(tokenHash: string): Promise<string> {
  return (await sha256Hex(`session-id:${tokenHash}`)).slice(0, 32);
}

/** The teacher's live sessions (not expired, not idle too long), this one first, then the latest seen. */
export async function listTeacherSessions(
  hot: HotState,
  who: TeacherRef,
  currentTokenHash: string,
  now = Date.now(),
): Promise<AccountSession[]> {
  const rows = await schoolObject(hot, who.schoolId).listSessions(who.schoolId, who.teacherId, now);
  const listed = await Promise.all(
    rows.map(async (row) => ({
      id: await sessionId(row.tokenHash),
      device: row.device,
      signedInAt: row.createdAt,
      // This request is the latest sign of life of the current session, whatever was last written.
      lastSeenAt: row.tokenHash === currentTokenHash ? now : row.lastSeenAt,
      current: row.tokenHash === currentTokenHash,
    })),
  );
  return listed.sort((a, b) => Number(b.current) - Number(a.current));
}

/**
 * Ends one of the teacher's own sessions by its opaque id. Another teacher's session, an ended one
 * and a made-up id all answer 404 alike. `current` tells the caller it ended the session making
 * the request (so it clears the cookie and leaves the signed-in pages).
 */
export async function endTeacherSession(
  hot: HotState,
  who: TeacherRef,
  id: string,
  currentTokenHash: string,
  now = Date.now(),
): Promise<Outcome<AccountChange<{ current: boolean }>>> {
  const gone = failure("not-found", SESSION_GONE);
  if (!SessionIdSchema.safeParse(id).success) return gone;
  let match: { tokenHash: string; device: string | null } | undefined;
  const school = schoolObject(hot, who.schoolId);
  for (const row of await school.listSessions(who.schoolId, who.teacherId, now)) {
    if ((await sessionId(row.tokenHash)) === id) match = row;
  }
  if (!match) return gone;
  if (!(await school.endSession(who.schoolId, match.tokenHash, who.teacherId))) return gone;
  const current = match.tokenHash === currentTokenHash;
  const message = current
    ? "You have been signed out on this device."
    : `The session on ${match.device ?? "an unknown device"} has been ended.`;
  return done({ current, message });
}

/** Ends every session of the teacher, this one included. */
export async function signOutEverywhere(hot: HotState, who: TeacherRef): Promise<{ sessionsEnded: number; message: string }> {
  const ended = await schoolObject(hot, who.schoolId).endTeacherSessions(who.schoolId, who.teacherId);
  return { sessionsEnded: ended, message: "You have been signed out everywhere." };
}
