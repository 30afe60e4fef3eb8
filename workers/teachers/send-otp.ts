import { and, eq, sql } from "drizzle-orm";
import { issueOtp, OTP_TTL_MS, type OtpPurpose } from "../auth/otp.ts";
import { blockedFor, describeWait, recordHit } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import { type School, teachers } from "../db/schema.ts";
import type { AppConfig } from "../http/config.ts";
import { accountExistsEmail, otpEmail } from "../mail/otp-email.ts";
import { sendSmtp } from "../mail/smtp.ts";
import { LIMIT_REACHED } from "./accounts.ts";

export type SendOtpAnswer = {
  status: 200 | 403 | 429 | 502 | 503;
  body: { message?: string; error?: string };
  /** Development Mode only: the code the body shows (for an admin's own wording of it). */
  devCode?: string;
};

// One client may ask for codes for many addresses (a teacher mistyping), but not flood inboxes.
const CLIENT_RULE = { limit: 30, windowMs: 3600_000, blockMs: 3600_000 };

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
  input: { school: School; email: string; purpose: OtpPurpose; clientIp: string; loginUrl: string },
  now = Date.now(),
): Promise<SendOtpAnswer> {
  const { school, email, purpose } = input;
  if (!config.mail && !config.devMode) {
    return { status: 503, body: { error: "Email delivery is not configured. Please contact your school's administrator." } };
  }
  const clientKey = `otp:client:${input.clientIp}`;
  const wait = await blockedFor(db, [clientKey], now);
  if (wait > 0) return { status: 429, body: { error: `Too many codes requested. Please try again in ${describeWait(wait)}.` } };

  const [existing] = await db
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, email)));
  if (purpose === "register" && !existing && (await isSchoolFull(db, school.id))) {
    return { status: 403, body: { error: LIMIT_REACHED } };
  }

  const issued = await issueOtp(db, secret, { schoolId: school.id, email, purpose }, now);
  if (!issued.ok) {
    return { status: 429, body: { error: `Please wait ${describeWait(issued.retryAfterMs)} before requesting another OTP.` } };
  }
  await recordHit(db, clientKey, CLIENT_RULE, now);

  if (!config.mail) {
    console.log(`[Development Mode] OTP for ${email} at ${school.slug} (${purpose}): ${issued.code}`);
    return {
      status: 200,
      body: { error: `Development Mode: email delivery is not configured, so here is your OTP: ${issued.code}` },
      devCode: issued.code,
    };
  }

  const minutesValid = OTP_TTL_MS / 60_000;
  const content =
    purpose === "register" && existing
      ? accountExistsEmail({ schoolName: school.name, loginUrl: input.loginUrl })
      : purpose === "reset" && !existing
        ? null
        : otpEmail({ code: issued.code, schoolName: school.name, purpose, minutesValid });
  if (content) {
    try {
      await sendSmtp(config.mail.smtpUrl, { from: config.mail.from, to: email, ...content });
    } catch (error) {
      console.error("OTP e-mail failed", school.slug, error instanceof Error ? error.message : error);
      return { status: 502, body: { error: "We could not send the email right now. Please try again in a few minutes." } };
    }
  }
  return { status: 200, body: { message: OTP_SENT } };
}

async function isSchoolFull(db: Db, schoolId: number): Promise<boolean> {
  const row = await db.get<{ full: number }>(sql`
    SELECT (SELECT count(*) FROM teachers WHERE school_id = ${schoolId}) >= teacher_limit AS full FROM schools WHERE id = ${schoolId}`);
  return row?.full === 1;
}
