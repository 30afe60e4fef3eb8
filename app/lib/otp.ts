import { api, call } from "./api-client.ts";

/** A line under a form: the server's text (tone by its wording) or a green success. */
export type FormMessage = { text: string; tone?: "success" };

/**
 * Asks the server to e-mail a one-time code, and returns what to tell the teacher: in
 * Development Mode the server's 'Development Mode' text (it carries the code), otherwise that the
 * code is on its way. Failures throw ApiError with the server's text ('limit_reached' included).
 */
export async function requestOtp(email: string, slug: string, purpose: "register" | "reset"): Promise<FormMessage> {
  const body: { message?: string; error?: string } = await call(
    () => api.api.teacher["send-otp"].$post({ json: { email, slug, purpose } }),
    "Failed to send OTP",
  );
  return body.error ? { text: body.error } : { text: body.message ?? "OTP sent to your email.", tone: "success" };
}
