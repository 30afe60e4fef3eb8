import { and, eq, sql } from "drizzle-orm";
import { issueOtp, OTP_TTL_MS, type OtpPurpose } from "../auth/otp.ts";
import { describeWait, recordAmount, throttleAddress } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import { type School, teachers } from "../db/schema.ts";
import type { AppConfig } from "../kernel/config.ts";
import { done, type Failed, failure, type Outcome } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { accountExistsEmail, noAccountEmail, otpEmail } from "../mail/otp-email.ts";
import { sendSmtp } from "../mail/smtp.ts";
import { LIMIT_REACHED } from "./sign-up-and-login.ts";

export type SentCode = {
  /**
   * What the requester's dialog reads: `{ message }`, or in Development Mode for the teacher's own
   * dialog `{ error }` with the code in it (shown on screen, README), a success all the same.
   */
  reply: { message: string } | { error: string };
  /** Where the code went: the teacher's inbox, or the server's log (Development Mode). */
  delivery: "email" | "log";
};

/**
 * Who asked for the code. "teacher": the address's own register or reset dialog, which in
 * Development Mode shows the code on screen (README). "staff": an admin or a coordinator acting on
 * a teacher's account; the code is that teacher's alone, so their answer never carries it, in any
 * mode (issue 41 item 9: one coordinator could otherwise take over another's account).
 */
export type OtpRequester = "teacher" | "staff";

/**
 * Codes per hour (docs/decisions/0016). Keyed by what identifies abuse, not by a shared address: a
 * school's staff share one public address, so the per-address limit fits a whole building signing
 * up together and nothing blocks an address beyond the hour's count. A refused request is not counted.
 *   email:   one inbox, per school and purpose: a minute apart and 5 an hour (issueOtp, workers/auth/otp.ts);
 *   school:  one school's codes, three per teacher slot and at least 120;
 *   client:  one address, 200: a staff meeting registers, one machine cannot spray 500 inboxes.
 */
export const OTP_LIMITS = {
  client: { limit: 200, windowMs: 3600_000 },
  schoolPerSlot: 3,
  schoolMin: 120,
} as const;

export const OTP_SENT = "OTP sent to your email. Please check your inbox.";

/**
 * Issues a code and e-mails it. The answer never says whether the address has an account:
 * registering a known address e-mails a note instead of a code, and a reset for an unknown
 * address sends nothing, both with the same answer as a real send.
 */
export async function sendTeacherOtp(
  db: Db,
  config: AppConfig,
  secret: string,
  input: { school: School; email: string; purpose: OtpPurpose; clientIp: string; loginUrl: string; requester: OtpRequester },
  now = Date.now(),
): Promise<Outcome<SentCode>> {
  const { school, email, purpose } = input;
  if (!config.mail && !config.devMode) {
    return failure("unavailable", "Email delivery is not configured. Please contact your school's administrator.");
  }
  // At a full school nobody needs a registration code (a registered teacher signs in): one answer for every address.
  if (purpose === "register" && (await isSchoolFull(db, school.id))) return failure("refused", LIMIT_REACHED);

  const [existing] = await db
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, email)));
  const refused = await countCode(db, school, input.clientIp, now);
  if (refused) return refused;

  const issued = await issueOtp(db, secret, { schoolId: school.id, email, purpose }, now);
  if (!issued.ok) {
    return failure("throttled", `Please wait ${describeWait(issued.retryAfterMs)} before requesting another OTP.`);
  }

  if (!config.mail) {
    log.info(`[Development Mode] OTP for ${email} at ${school.slug} (${purpose}): ${issued.code}`);
    if (input.requester === "staff")
      return done({ reply: { message: "Development Mode: the code was sent to the server's log." }, delivery: "log" });
    return done({
      reply: { error: `Development Mode: email delivery is not configured, so here is your OTP: ${issued.code}` },
      delivery: "log",
    });
  }

  const minutesValid = OTP_TTL_MS / 60_000;
  const content =
    purpose === "register" && existing
      ? accountExistsEmail({ schoolName: school.name, loginUrl: input.loginUrl })
      : purpose === "reset" && !existing
        ? noAccountEmail({ schoolName: school.name, loginUrl: input.loginUrl })
        : otpEmail({ code: issued.code, schoolName: school.name, purpose, minutesValid });
  // Every answer sends one e-mail, so known and unknown addresses take the same time.
  try {
    await sendSmtp(config.mail.smtpUrl, { from: config.mail.from, to: email, ...content });
  } catch (error) {
    log.error("OTP e-mail failed", { school: school.slug, error: error instanceof Error ? error.message : String(error) });
    return failure("upstream-failed", "We could not send the email right now. Please try again in a few minutes.");
  }
  return done({ reply: { message: OTP_SENT }, delivery: "email" });
}

/**
 * Counts one code against the address and the school, or the refusal. The wait is in the sentence;
 * the answer never sent a Retry-After, so none is set here.
 */
async function countCode(db: Db, school: School, clientIp: string, now: number): Promise<Failed | null> {
  const schoolLimit = Math.max(OTP_LIMITS.schoolMin, OTP_LIMITS.schoolPerSlot * school.teacherLimit);
  const checks = [
    { key: `otp:client:${throttleAddress(clientIp)}`, rule: OTP_LIMITS.client },
    { key: `otp:school:${school.id}`, rule: { limit: schoolLimit, windowMs: 3600_000 } },
  ];
  for (const { key, rule } of checks) {
    const counted = await recordAmount(db, key, 1, rule, now);
    if (!counted.allowed) {
      return failure("throttled", `Too many codes requested. Please try again in ${describeWait(counted.retryAfterMs)}.`);
    }
  }
  return null;
}

async function isSchoolFull(db: Db, schoolId: number): Promise<boolean> {
  const row = await db.get<{ full: number }>(sql`
    SELECT (SELECT count(*) FROM teachers WHERE school_id = ${schoolId} AND erased_at IS NULL) >= teacher_limit AS full FROM schools WHERE id = ${schoolId}`);
  return row?.full === 1;
}
