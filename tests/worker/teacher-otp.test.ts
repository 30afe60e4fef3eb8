import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { checkOtp, issueOtp, OTP_HOURLY_LIMIT, OTP_MAX_ATTEMPTS, OTP_TTL_MS } from "../../workers/auth/otp.ts";
import { api, client, createSchool, db, devModeCode, errorOf } from "./helpers.ts";

const SECRET = env.AUTH_SECRET;
let emailCounter = 0;
const freshEmail = () => `otp-${++emailCounter}-${crypto.randomUUID().slice(0, 6)}@school.test`;

/** POST /api/teacher/send-otp, through the typed client (`call` sets the Worker's env). */
const sendOtp = (call: Parameters<typeof client>[0] = {}) => client(call).api.teacher["send-otp"];

describe("POST /api/teacher/send-otp", () => {
  it("in Development Mode answers the code in a 'Development Mode' text and stores only its HMAC", async () => {
    const school = await createSchool();
    const email = freshEmail();
    const response = await sendOtp().$post({ json: { email, slug: school.slug, purpose: "register" } });
    expect(response.status).toBe(200);
    const code = await devModeCode(response.clone());
    expect(await errorOf(response)).toMatch(/^Development Mode/);
    const row = await env.DB.prepare("SELECT code_hash, expires_at - created_at AS ttl FROM otp_codes WHERE email = ?").bind(email).first<{
      code_hash: string;
      ttl: number;
    }>();
    expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.code_hash).not.toContain(code);
    expect(row?.ttl).toBe(10 * 60_000);
  });

  it("throttles a resend within 60 seconds", async () => {
    const school = await createSchool();
    const email = freshEmail();
    expect((await sendOtp().$post({ json: { email, slug: school.slug } })).status).toBe(200);
    const again = await sendOtp().$post({ json: { email, slug: school.slug } });
    expect(again.status).toBe(429);
    expect(await errorOf(again)).toMatch(/^Please wait \d+ seconds? before requesting another OTP\.$/);
    // A code for another purpose (a reset right after registering) is not a resend.
    expect((await sendOtp().$post({ json: { email, slug: school.slug, purpose: "reset" } })).status).toBe(200);
  });

  it("refuses production without a mail transport unless Development Mode is enabled", async () => {
    const school = await createSchool();
    const response = await sendOtp({ env: { ALLOW_DEV_MODE: "false" } }).$post({ json: { email: freshEmail(), slug: school.slug } });
    expect(response.status).toBe(503);
    expect(await response.text()).not.toMatch(/\d{6}/);
  });

  it("answers 404 for an unknown school and 400 for a bad e-mail", async () => {
    expect((await sendOtp().$post({ json: { email: freshEmail(), slug: "no-such-school" } })).status).toBe(404);
    const bad = await sendOtp().$post({ json: { email: "not-an-email", slug: "x" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Please enter a valid email address", field: "email" });
  });

  it("on a school's subdomain only speaks for that school", async () => {
    const school = await createSchool();
    const other = await createSchool();
    // Raw: the typed client calls our own origin, not a school's host.
    const response = await api(`https://${school.slug}.lectern.test/api/teacher/send-otp`, {
      body: { email: freshEmail(), slug: other.slug },
    });
    expect(response.status).toBe(404);
  });
});

describe("one-time codes", () => {
  it("allow one every 60 s and at most five an hour per e-mail and school", async () => {
    const school = await createSchool();
    const subject = { schoolId: school.id, email: freshEmail(), purpose: "register" as const };
    const t0 = 1_900_000_000_000;
    expect((await issueOtp(db(), SECRET, subject, t0)).ok).toBe(true);
    expect((await issueOtp(db(), SECRET, subject, t0 + 59_000)).ok).toBe(false);
    for (let i = 1; i < OTP_HOURLY_LIMIT; i++) {
      const purpose = i % 2 ? ("reset" as const) : ("register" as const);
      expect((await issueOtp(db(), SECRET, { ...subject, purpose }, t0 + i * 61_000)).ok).toBe(true);
    }
    const sixth = await issueOtp(db(), SECRET, subject, t0 + OTP_HOURLY_LIMIT * 61_000);
    expect(sixth).toMatchObject({ ok: false });
    expect(sixth.ok === false && sixth.retryAfterMs).toBeGreaterThan(50 * 60_000);
    expect((await issueOtp(db(), SECRET, subject, t0 + 3600_000 + 1000)).ok).toBe(true);
  });

  it("hold under concurrency: ten simultaneous sends issue one code", async () => {
    const school = await createSchool();
    const subject = { schoolId: school.id, email: freshEmail(), purpose: "register" as const };
    const results = await Promise.all(Array.from({ length: 10 }, () => issueOtp(db(), SECRET, subject)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("expire after 10 minutes", async () => {
    const school = await createSchool();
    const subject = { schoolId: school.id, email: freshEmail(), purpose: "register" as const };
    const issued = await issueOtp(db(), SECRET, subject, 2_000_000_000_000);
    if (!issued.ok) throw new Error("not issued");
    expect(await checkOtp(db(), SECRET, subject, issued.code, 2_000_000_000_000 + OTP_TTL_MS + 1)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("are bound to e-mail, school and purpose", async () => {
    const school = await createSchool();
    const other = await createSchool();
    const subject = { schoolId: school.id, email: freshEmail(), purpose: "register" as const };
    const issued = await issueOtp(db(), SECRET, subject);
    if (!issued.ok) throw new Error("not issued");
    expect((await checkOtp(db(), SECRET, { ...subject, purpose: "reset" }, issued.code)).ok).toBe(false);
    expect((await checkOtp(db(), SECRET, { ...subject, schoolId: other.id }, issued.code)).ok).toBe(false);
    expect((await checkOtp(db(), SECRET, { ...subject, email: freshEmail() }, issued.code)).ok).toBe(false);
    expect((await checkOtp(db(), SECRET, subject, issued.code)).ok).toBe(true);
  });

  it("allow five wrong tries, after which even the right code fails", async () => {
    const school = await createSchool();
    const subject = { schoolId: school.id, email: freshEmail(), purpose: "register" as const };
    const issued = await issueOtp(db(), SECRET, subject);
    if (!issued.ok) throw new Error("not issued");
    const wrong = issued.code === "000000" ? "111111" : "000000";
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++)
      expect(await checkOtp(db(), SECRET, subject, wrong)).toEqual({ ok: false, reason: "invalid" });
    expect(await checkOtp(db(), SECRET, subject, issued.code)).toEqual({ ok: false, reason: "attempts" });
  });

  it("count concurrent guesses atomically", async () => {
    const school = await createSchool();
    const subject = { schoolId: school.id, email: freshEmail(), purpose: "register" as const };
    const issued = await issueOtp(db(), SECRET, subject);
    if (!issued.ok) throw new Error("not issued");
    await Promise.all(Array.from({ length: 20 }, (_, i) => checkOtp(db(), SECRET, subject, String(100000 + i))));
    const row = await env.DB.prepare("SELECT attempts FROM otp_codes WHERE email = ?").bind(subject.email).first<{ attempts: number }>();
    expect(row?.attempts).toBe(OTP_MAX_ATTEMPTS);
  });
});
