import { Hono } from "hono";
import { z } from "zod";
import { getTeacherSession, readSessionToken, revokeSession, sessionCookie } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { readConfig } from "../http/config.ts";
import { clientIp, requireSameOrigin } from "../http/request-guards.ts";
import { resolveHost, schoolBasePath } from "../http/tenancy.ts";
import { validate } from "../http/validate.ts";
import { findSchoolBySlug } from "../schools/lookup.ts";
import { loginTeacher, registerTeacher, resetTeacherPassword } from "../teachers/accounts.ts";
import { sendTeacherOtp } from "../teachers/send-otp.ts";
import { EmailSchema, MobileSchema, OtpCodeSchema, PasswordSchema, PersonNameSchema, SlugParamSchema } from "../validation/schemas.ts";

type Env = { Bindings: Cloudflare.Env };

const SendOtpSchema = z.object({
  email: EmailSchema,
  slug: SlugParamSchema,
  purpose: z.enum(["register", "reset"]).default("register"),
});
const RegisterSchema = z.object({
  name: PersonNameSchema,
  mobile: MobileSchema,
  email: EmailSchema,
  password: PasswordSchema,
  otp: OtpCodeSchema,
  slug: SlugParamSchema,
});
const LoginSchema = z.object({
  email: EmailSchema,
  // Any length: a login compares, it does not set, and a shorter old password must still be refused politely.
  password: z.string().min(1, "Please enter both email and password").max(1024),
  slug: SlugParamSchema,
});
const ResetSchema = z.object({ email: EmailSchema, otp: OtpCodeSchema, newPassword: PasswordSchema, slug: SlugParamSchema });

/**
 * The school a teacher request is for: on a school's subdomain only that school, whatever the
 * body says; on the main host the school named by the slug.
 */
async function schoolFor(request: Request, env: Cloudflare.Env, slug: string) {
  const host = resolveHost(new URL(request.url).hostname, readConfig(env as never).appDomain);
  if (host.kind === "admin" || host.kind === "invalid" || (host.kind === "school" && host.slug !== slug)) return null;
  return findSchoolBySlug(getDb(env.DB), slug);
}

const SCHOOL_NOT_FOUND = { error: "School not found" } as const;

export const teacherApi = new Hono<Env>()
  .use(requireSameOrigin)
  .post("/send-otp", validate("json", SendOtpSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolFor(c.req.raw, c.env, body.slug);
    if (!school) return c.json(SCHOOL_NOT_FOUND, 404);
    const config = readConfig(c.env as never);
    const url = new URL(c.req.url);
    const loginUrl = `${url.origin}${schoolBasePath(resolveHost(url.hostname, config.appDomain), school.slug) || "/"}`;
    const answer = await sendTeacherOtp(getDb(c.env.DB), config, config.authSecret, {
      school,
      email: body.email,
      purpose: body.purpose,
      clientIp: clientIp(c.req.raw),
      loginUrl,
    });
    return c.json(answer.body, answer.status);
  })
  .post("/register", validate("json", RegisterSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolFor(c.req.raw, c.env, body.slug);
    if (!school) return c.json(SCHOOL_NOT_FOUND, 404);
    const result = await registerTeacher(getDb(c.env.DB), readConfig(c.env as never).authSecret, { school, ...body });
    if (!result.ok) return c.json({ error: result.error }, result.status);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", result.token));
    return c.json({ teacherName: result.teacherName }, 201);
  })
  .post("/login", validate("json", LoginSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolFor(c.req.raw, c.env, body.slug);
    if (!school) return c.json({ error: "Invalid email or password" }, 401);
    const db = getDb(c.env.DB);
    const result = await loginTeacher(db, { school, email: body.email, password: body.password, clientIp: clientIp(c.req.raw) });
    if (!result.ok) return c.json({ error: result.error }, result.status);
    // A new token at every login: whatever session this browser had before is ended.
    const previous = readSessionToken(c.req.raw, "teacher");
    if (previous) await revokeSession(db, previous);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", result.token));
    return c.json({ teacherName: result.teacherName });
  })
  .post("/reset-password", validate("json", ResetSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolFor(c.req.raw, c.env, body.slug);
    if (!school) return c.json(SCHOOL_NOT_FOUND, 404);
    const result = await resetTeacherPassword(getDb(c.env.DB), readConfig(c.env as never).authSecret, {
      school,
      email: body.email,
      otp: body.otp,
      newPassword: body.newPassword,
    });
    if (!result.ok) return c.json({ error: result.error }, result.status);
    return c.json({ message: "Password reset successful! You can now log in with your new password." });
  })
  .get("/verify-token", async (c) => {
    const session = await getTeacherSession(getDb(c.env.DB), c.req.raw);
    if (!session) return c.json({ error: "Not signed in" }, 401);
    c.header("Cache-Control", "private, no-store");
    return c.json({
      teacherName: session.teacher.name,
      email: session.teacher.email,
      school: { slug: session.school.slug, name: session.school.name },
    });
  })
  .post("/sign-out", async (c) => {
    const token = readSessionToken(c.req.raw, "teacher");
    if (token) await revokeSession(getDb(c.env.DB), token);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
    return c.json({ ok: true });
  });
