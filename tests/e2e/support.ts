import { inject } from "vitest";
import { runOrExit } from "../../scripts/lib/env.ts";
import { type CaughtMessage, extractCode } from "../support/caught-mail.ts";

/** Waits for the e-mail the app sent to `to` (after `since`) and returns the code in it. */
export async function codeFromMail(to: string, since = 0): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${inject("mailCatcherURL")}/messages?to=${encodeURIComponent(to)}`);
    const messages = ((await response.json()) as CaughtMessage[]).filter((m) => Date.parse(String(m.receivedAt)) >= since);
    const code = messages.length ? extractCode(messages[messages.length - 1]!.text) : null;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No code e-mailed to ${to}`);
}

/** Runs SQL against the e2e database, for arranging a situation (a full school) a test needs. */
export async function execSql(sql: string): Promise<void> {
  await runOrExit("wrangler", [
    "d1",
    "execute",
    "DB",
    "--local",
    "--config",
    "wrangler.jsonc",
    "--persist-to",
    inject("persistTo"),
    "--command",
    sql,
  ]);
}

let counter = 0;
export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++counter}@school.test`;
