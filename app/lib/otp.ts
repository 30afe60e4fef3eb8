import { useMemo, useRef } from "react";
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

/** How long a code stays valid on the server (OTP_TTL_MS in workers/auth/otp.ts). */
export const OTP_VALID_MS = 10 * 60_000;
/** The server's gap between two codes to one inbox, so "Resend OTP" waits for it. */
export const RESEND_GAP_MS = 60_000;
/** A code is offered again only while the teacher still has a minute to type it. */
const REUSE_MARGIN_MS = 60_000;

export type SentCode = { at: number; message: FormMessage };

/**
 * The codes a dialog has had sent, by e-mail address, for as long as the dialog is on the page
 * (closing it clears its fields, not this). Going forward again to the same address reuses the
 * code already in the inbox instead of asking for another one, which the server refuses for a
 * minute ("Please wait 59 seconds..."); another address gets a new code.
 */
export function useSentCodes() {
  const sent = useRef(new Map<string, SentCode>());
  return useMemo(() => {
    const key = (email: string) => email.trim().toLowerCase();
    return {
      record(email: string, message: FormMessage, at = Date.now()) {
        sent.current.set(key(email), { at, message });
      },
      /** After the code was used (a reset done): the next request sends a new one. */
      forget(email: string) {
        sent.current.delete(key(email));
      },
      /** The code sent to `email` that is still worth typing, if any. */
      find(email: string, now = Date.now()): SentCode | undefined {
        const code = sent.current.get(key(email));
        return code && now - code.at < OTP_VALID_MS - REUSE_MARGIN_MS ? code : undefined;
      },
    };
  }, []);
}

/** A dialog's record of the codes it sent (useSentCodes). */
export type SentCodes = ReturnType<typeof useSentCodes>;
