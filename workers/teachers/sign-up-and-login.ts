import { and, eq, sql } from "drizzle-orm";
import { describeDevice } from "../auth/device.ts";
import { BAD_CREDENTIALS, checkLogin, loginHousekeeping } from "../auth/login-guard.ts";
import { checkOtp, OTP_ERRORS } from "../auth/otp.ts";
import { hashPassword } from "../auth/password.ts";
import { type HotState, openTeacherSession } from "../auth/sessions.ts";
import { ACCOUNT_DISABLED } from "../auth/signed-out.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { loginEvents, type School, schools, teachers } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { schoolObject } from "../school-object/objects.ts";

export const LIMIT_REACHED = "limit_reached";
export const DUPLICATE_EMAIL = "An account with this email already exists at this school. Please log in, or use 'Forgot Password?'.";

/**
 * A code's check (its id, to consume it), then the teacher its address names at the school (null:
 * none). The code comes first, so whether an account exists is never told to someone without it.
 */
async function teacherByCode(
  db: Db,
  secret: string,
  input: { school: School; email: string; otp: string },
  purpose: "register" | "reset",
  now: number,
): Promise<Outcome<{ otpId: number; teacher: { id: number } | null }>> {
  const { school, email } = input;
  const check = await checkOtp(db, secret, { schoolId: school.id, email, purpose }, input.otp, now);
  if (!check.ok) return failure("invalid", OTP_ERRORS[check.reason]);
  const [teacher] = await db
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, email)));
  return done({ otpId: check.otpId, teacher: teacher ?? null });
}

/**
 * Creates the teacher in one D1 transaction whose statements each guard the next: the insert only
 * happens while the school is under its teacher limit and the code is unused; the code is consumed
 * only if the teacher now exists. D1 runs transactions one at a time, so racing registrations can
 * never exceed the limit. Then the school's object signs the new teacher in.
 */
export async function registerTeacher(
  db: Db,
  hot: HotState,
  secret: string,
  input: { school: School; name: string; mobile: string; email: string; password: string; otp: string; userAgent?: string | null },
  now = Date.now(),
): Promise<Outcome<{ token: string; teacherName: string }>> {
  const { school, email } = input;
  // A known address gets the wrong code's answer (its owner was e-mailed "you already have an
  // account" instead of a code), so this call reveals no account.
  const found = await teacherByCode(db, secret, input, "register", now);
  if (!found.ok) return found;
  const { otpId, teacher: existing } = found.value;
  if (existing) return failure("invalid", OTP_ERRORS.invalid);

  const passwordHash = await hashPassword(input.password);
  const teacherId = sql`(SELECT id FROM teachers WHERE school_id = ${school.id} AND email = ${email})`;
  let created: { id: number } | undefined;
  try {
    const [inserted] = await runTransaction(db, [
      sql`
        INSERT INTO teachers (school_id, name, email, mobile, password_hash, created_at)
        SELECT ${school.id}, ${input.name}, ${email}, ${input.mobile}, ${passwordHash}, ${now}
        WHERE (SELECT count(*) FROM teachers WHERE school_id = ${school.id} AND erased_at IS NULL) < (SELECT teacher_limit FROM schools WHERE id = ${school.id})
          AND EXISTS (SELECT 1 FROM otp_codes WHERE id = ${otpId} AND used_at IS NULL)
        RETURNING id`,
      sql`UPDATE otp_codes SET used_at = ${now} WHERE id = ${otpId} AND used_at IS NULL AND ${teacherId} IS NOT NULL`,
      sql`
        INSERT INTO login_events (kind, school_id, teacher_id, at) SELECT 'teacher', ${school.id}, ${teacherId}, ${now}
        WHERE ${teacherId} IS NOT NULL`,
    ]);
    created = inserted?.results[0] as { id: number } | undefined;
    if (!created) {
      const [otp] = await db.all<{ usedAt: number | null }>(sql`SELECT used_at AS usedAt FROM otp_codes WHERE id = ${otpId}`);
      if (otp?.usedAt !== null) return failure("invalid", OTP_ERRORS.invalid);
      return failure("refused", LIMIT_REACHED);
    }
  } catch (error) {
    // Two registrations for the same address racing: the unique index refuses the second.
    if (String(error).includes("UNIQUE")) return failure("conflict", DUPLICATE_EMAIL, "email");
    throw error;
  }
  const teacher = { id: created.id, name: input.name, email };
  const token = await openTeacherSession(hot, school, teacher, describeDevice(input.userAgent), now);
  // Only a teacher the object knows as disabled has no session; a new one cannot be.
  if (!token) return failure("refused", ACCOUNT_DISABLED);
  return done({ token, teacherName: input.name });
}

export async function loginTeacher(
  db: Db,
  hot: HotState,
  input: { school: School; email: string; password: string; clientIp: string; userAgent?: string | null },
  now = Date.now(),
): Promise<Outcome<{ token: string; teacherName: string }>> {
  const { school, email } = input;
  const [teacher] = await db
    .select({ id: teachers.id, name: teachers.name, passwordHash: teachers.passwordHash, disabled: teachers.disabled })
    .from(teachers)
    .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, email)));
  const check = await checkLogin(
    db,
    { scope: String(school.id), email, clientIp: input.clientIp, password: input.password, storedHash: teacher?.passwordHash },
    now,
  );
  if (!check.ok) return check;
  // checkLogin passes only with a stored hash, so the account exists here.
  if (!teacher) return failure("unauthenticated", BAD_CREDENTIALS);
  if (teacher.disabled) return failure("refused", ACCOUNT_DISABLED);

  // The session first: a teacher whose disable reached the school's object but not D1 stays out.
  const token = await openTeacherSession(hot, school, { id: teacher.id, name: teacher.name, email }, describeDevice(input.userAgent), now);
  if (!token) return failure("refused", ACCOUNT_DISABLED);
  await db.batch([
    db.insert(loginEvents).values({ kind: "teacher", schoolId: school.id, teacherId: teacher.id, at: now }),
    db
      .update(schools)
      .set({ totalLogins: sql`${schools.totalLogins} + 1` })
      .where(eq(schools.id, school.id)),
    ...loginHousekeeping(db, now),
  ]);
  return done({ token, teacherName: teacher.name });
}

/**
 * Sets a new password with a reset code and signs the teacher out everywhere. As in
 * registration, the guarded write comes first and the code is consumed after it. The sessions end
 * in the school's object before D1 is written: if D1 then fails, the teacher is signed out with the
 * old password still set (they try again), never signed in with a password they meant to replace.
 */
export async function resetTeacherPassword(
  db: Db,
  hot: HotState,
  secret: string,
  input: { school: School; email: string; otp: string; newPassword: string },
  now = Date.now(),
): Promise<Outcome<Record<never, never>>> {
  const { school } = input;
  const found = await teacherByCode(db, secret, input, "reset", now);
  if (!found.ok) return found;
  const { otpId, teacher } = found.value;
  // Codes are issued for unknown addresses too (so the form reveals nothing); they just open nothing.
  if (!teacher) return failure("invalid", OTP_ERRORS.invalid);

  const passwordHash = await hashPassword(input.newPassword);
  await schoolObject(hot, school.id).endTeacherSessions(school.id, teacher.id);
  const [updated] = await runTransaction(db, [
    sql`
      UPDATE teachers SET password_hash = ${passwordHash}
      WHERE id = ${teacher.id} AND EXISTS (SELECT 1 FROM otp_codes WHERE id = ${otpId} AND used_at IS NULL)
      RETURNING id`,
    sql`UPDATE otp_codes SET used_at = ${now} WHERE id = ${otpId} AND used_at IS NULL`,
  ]);
  if (!updated?.results.length) return failure("invalid", OTP_ERRORS.invalid);
  return done({});
}
