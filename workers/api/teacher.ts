import { Hono } from "hono";
import { z } from "zod";
import { endTeacherCookieSession, sessionCookie } from "../auth/sessions.ts";
import { requireRole, schoolNamedByBody, type TeacherApiEnv } from "../http/guards.ts";
import { failureResponse } from "../http/run-command.ts";
import { schoolBasePath } from "../http/tenancy.ts";
import { clientIp } from "../kernel/context.ts";
import { validate } from "../kernel/validate.ts";
import { sendTeacherOtp } from "../teachers/send-otp.ts";
import { loginTeacher, registerTeacher, resetTeacherPassword } from "../teachers/sign-up-and-login.ts";
import { EmailSchema, MobileSchema, OtpCodeSchema, PasswordSchema, PersonNameSchema, SlugParamSchema } from "../validation/schemas.ts";

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

const SCHOOL_NOT_FOUND = { error: "School not found" } as const;

export const teacherApi = new Hono<TeacherApiEnv>()
  .post("/send-otp", validate("json", SendOtpSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolNamedByBody(c.var.context, body.slug);
    if (!school) return c.json(SCHOOL_NOT_FOUND, 404);
    const { config, db, tenant } = c.var.context;
    const loginUrl = `${new URL(c.req.url).origin}${schoolBasePath(tenant.host, school.slug) || "/"}`;
    const answer = await sendTeacherOtp(db, config, config.authSecret, {
      school,
      email: body.email,
      purpose: body.purpose,
      clientIp: clientIp(c.req.raw),
      loginUrl,
      // The teacher's own dialog: Development Mode shows them the code (README).
      requester: "teacher",
    });
    return answer.ok ? c.json(answer.value.reply) : failureResponse(c, answer.failure);
  })
  .post("/register", validate("json", RegisterSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolNamedByBody(c.var.context, body.slug);
    if (!school) return c.json(SCHOOL_NOT_FOUND, 404);
    const userAgent = c.req.header("User-Agent");
    const result = await registerTeacher(c.var.context.db, c.env, c.var.context.config.authSecret, { school, ...body, userAgent });
    if (!result.ok) return failureResponse(c, result.failure);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", result.value.token));
    return c.json({ teacherName: result.value.teacherName }, 201);
  })
  .post("/login", validate("json", LoginSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolNamedByBody(c.var.context, body.slug);
    if (!school) return c.json({ error: "Invalid email or password" }, 401);
    const db = c.var.context.db;
    const result = await loginTeacher(db, c.env, {
      school,
      email: body.email,
      password: body.password,
      clientIp: clientIp(c.req.raw),
      userAgent: c.req.header("User-Agent"),
    });
    // From the third wrong password, the failure's details carry `triesLeft`: how many this device has before its 15-minute pause.
    if (!result.ok) return failureResponse(c, result.failure);
    // A new token at every login: whatever session this browser had before is ended.
    await endTeacherCookieSession(db, c.env, c.req.raw);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", result.value.token));
    return c.json({ teacherName: result.value.teacherName });
  })
  .post("/reset-password", validate("json", ResetSchema), async (c) => {
    const body = c.req.valid("json");
    const school = await schoolNamedByBody(c.var.context, body.slug);
    if (!school) return c.json(SCHOOL_NOT_FOUND, 404);
    const result = await resetTeacherPassword(c.var.context.db, c.env, c.var.context.config.authSecret, {
      school,
      email: body.email,
      otp: body.otp,
      newPassword: body.newPassword,
    });
    if (!result.ok) return failureResponse(c, result.failure);
    return c.json({ message: "Password reset successful! You can now log in with your new password." });
  })
  .get("/verify-token", requireRole("teacher"), async (c) => {
    const session = c.var.teacher;
    return c.json({
      teacherName: session.teacher.name,
      email: session.teacher.email,
      school: { slug: session.school.slug, name: session.school.name },
    });
  })
  .post("/sign-out", async (c) => {
    await endTeacherCookieSession(c.var.context.db, c.env, c.req.raw);
    c.header("Set-Cookie", sessionCookie(c.req.raw, "teacher", null));
    return c.json({ ok: true });
  });
