import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { constantTimeEqual, hmacHex } from "./tokens.ts";

export type OtpPurpose = "register" | "reset";

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_GAP_MS = 60_000;
export const OTP_HOURLY_LIMIT = 5;

export interface OtpSubject {
  schoolId: number;
  email: string;
  purpose: OtpPurpose;
}

/** Six digits from the CSPRNG, without modulo bias. */
export function generateOtp(): string {
  const limit = 4_294_000_000; // the largest multiple of 1,000,000 below 2^32
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  if (value === undefined || value >= limit) return generateOtp();
  return String(value % 1_000_000).padStart(6, "0");
}

/** The code is bound to its school, e-mail and purpose: a code for one never opens another. */
function otpHash(secret: string, subject: OtpSubject, code: string): Promise<string> {
  return hmacHex(secret, `otp:${subject.schoolId}:${subject.email}:${subject.purpose}:${code}`);
}

export type IssueResult = { ok: true; code: string } | { ok: false; retryAfterMs: number };

/**
 * Stores a new code unless the e-mail asked for one for the same purpose less than a minute ago,
 * or five times this hour (for this school, whatever the purpose). The check and the insert are one statement, so
 * concurrent requests cannot slip past the limits.
 */
export async function issueOtp(db: Db, secret: string, subject: OtpSubject, now = Date.now()): Promise<IssueResult> {
  const code = generateOtp();
  const codeHash = await otpHash(secret, subject, code);
  const inserted = await db.all<{ id: number }>(sql`
    INSERT INTO otp_codes (school_id, email, purpose, code_hash, expires_at, attempts, created_at)
    SELECT ${subject.schoolId}, ${subject.email}, ${subject.purpose}, ${codeHash}, ${now + OTP_TTL_MS}, 0, ${now}
    WHERE NOT EXISTS (
      SELECT 1 FROM otp_codes
      WHERE school_id = ${subject.schoolId} AND email = ${subject.email} AND purpose = ${subject.purpose} AND created_at > ${now - OTP_RESEND_GAP_MS}
    ) AND (
      SELECT count(*) FROM otp_codes WHERE school_id = ${subject.schoolId} AND email = ${subject.email} AND created_at > ${now - 3600_000}
    ) < ${OTP_HOURLY_LIMIT}
    RETURNING id`);
  if (inserted.length > 0) return { ok: true, code };

  const recent = await db.all<{ createdAt: number; purpose: string }>(sql`
    SELECT created_at AS createdAt, purpose FROM otp_codes
    WHERE school_id = ${subject.schoolId} AND email = ${subject.email} AND created_at > ${now - 3600_000}
    ORDER BY created_at DESC`);
  const newest = recent.find((r) => r.purpose === subject.purpose)?.createdAt ?? 0;
  const gapWait = newest + OTP_RESEND_GAP_MS - now;
  const hourlyWait = recent.length >= OTP_HOURLY_LIMIT ? (recent[OTP_HOURLY_LIMIT - 1]?.createdAt ?? now) + 3600_000 - now : 0;
  return { ok: false, retryAfterMs: Math.max(gapWait, hourlyWait, 1000) };
}

export type CheckResult = { ok: true; otpId: number } | { ok: false; reason: "invalid" | "expired" | "attempts" };

/**
 * Checks a code against the newest one issued for the subject, counting the attempt first (one
 * atomic update), so no more than five guesses are ever compared. The code is not consumed here:
 * the caller's write batch consumes it (`consumeOtp`) together with the change it authorises.
 */
export async function checkOtp(db: Db, secret: string, subject: OtpSubject, code: string, now = Date.now()): Promise<CheckResult> {
  const latest = await db.get<{ id: number; expiresAt: number; usedAt: number | null; attempts: number }>(sql`
    SELECT id, expires_at AS expiresAt, used_at AS usedAt, attempts FROM otp_codes
    WHERE school_id = ${subject.schoolId} AND email = ${subject.email} AND purpose = ${subject.purpose}
    ORDER BY created_at DESC, id DESC LIMIT 1`);
  if (!latest || latest.usedAt !== null) return { ok: false, reason: "invalid" };
  if (latest.expiresAt <= now) return { ok: false, reason: "expired" };

  const counted = await db.get<{ codeHash: string }>(sql`
    UPDATE otp_codes SET attempts = attempts + 1
    WHERE id = ${latest.id} AND used_at IS NULL AND attempts < ${OTP_MAX_ATTEMPTS}
    RETURNING code_hash AS codeHash`);
  if (!counted) return { ok: false, reason: "attempts" };
  const matches = constantTimeEqual(counted.codeHash, await otpHash(secret, subject, code));
  return matches ? { ok: true, otpId: latest.id } : { ok: false, reason: "invalid" };
}

/** Marks the code used; in a batch, the statements after it can require that this one took. */
export function consumeOtp(db: Db, otpId: number, now = Date.now()) {
  return db.run(sql`UPDATE otp_codes SET used_at = ${now} WHERE id = ${otpId} AND used_at IS NULL`);
}

export const OTP_ERRORS: Record<"invalid" | "expired" | "attempts", string> = {
  invalid: "Invalid OTP. Please check the code in your email and try again.",
  expired: "This OTP has expired. Please request a new code.",
  attempts: "Too many wrong codes. Please request a new OTP.",
};
