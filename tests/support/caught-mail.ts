// What the mail catcher stores and serves, shared by its Node side and the tests in workerd (so
// this file imports nothing).

/** One delivered message, as `GET /messages` returns it: one entry per envelope recipient. */
export interface CaughtMessage {
  /** Envelope recipient, lower-cased. */
  to: string;
  /** Envelope sender. */
  from: string;
  /** Decoded Subject header. */
  subject: string;
  /** Decoded text/plain body, "\n" line endings. */
  text: string;
  /** Decoded text/html body, if the message had one. */
  html: string | null;
  /** The message exactly as received (after SMTP dot-unstuffing). */
  raw: string;
  /** The AUTH user the client logged in as, if any. */
  user: string | null;
  receivedAt: string;
}

/** The catcher answers 550 for every recipient in this domain. */
export const REJECTED_DOMAIN = "rejected.test";

/** The one login the catcher accepts; characters that need URL-encoding on purpose. */
export const CATCHER_LOGIN = { user: "mailer@lectern.test", password: "p@ss:w/rd é%" } as const;

/** The first standalone 6-digit number in `text`, i.e. a one-time code. */
export function extractCode(text: string): string | null {
  return /\b\d{6}\b/.exec(text)?.[0] ?? null;
}
