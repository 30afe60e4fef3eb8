// What the Worker writes to its log while `run` runs (Development Mode's codes go there), for tests
// that check a code reached its owner's log line and nobody's answer.

import { vi } from "vitest";

export async function withLoggedLines<T>(run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  try {
    return { result: await run(), lines };
  } finally {
    spy.mockRestore();
  }
}

/** The code Development Mode logged for `email`'s `purpose` (workers/teachers/send-otp.ts), or null. */
export function loggedCode(lines: string[], email: string, purpose: "register" | "reset"): string | null {
  for (const line of lines) {
    const match = new RegExp(`OTP for ${email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} at \\S+ \\(${purpose}\\): (\\d{6})`).exec(line);
    if (match) return match[1]!;
  }
  return null;
}
