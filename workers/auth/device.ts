import { type ParsedResult, parse } from "bowser";

/**
 * What a teacher's account page shows for a session: "Chrome on Windows", "Safari on iPhone",
 * "Chrome on ChromeOS". Only this description is stored (sessions.device), never the raw
 * User-Agent: it is all the page needs, and it tells less about the teacher's machine.
 * The parsing is bowser's (docs/decisions/0017-teacher-account.md); the names are ours.
 */
export function describeDevice(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim().slice(0, 512);
  if (!ua) return null;
  const parsed = parse(ua);
  const browser = BROWSER_NAMES[parsed.browser.name ?? ""] ?? parsed.browser.name;
  const system = systemName(parsed);
  const text = browser && system ? `${browser} on ${system}` : browser || system;
  return text ? text.slice(0, 100) : null;
}

// Bowser's long names, shortened to what people call them.
const BROWSER_NAMES: Record<string, string> = {
  "Microsoft Edge": "Edge",
  "Samsung Internet for Android": "Samsung Internet",
};

function systemName(parsed: ParsedResult): string | undefined {
  const { os, platform } = parsed;
  // An iPhone or an iPad says more than "iOS" (and iPadOS calls itself iOS in its User-Agent).
  if (os.name === "iOS") return platform.model === "iPad" ? "iPad" : platform.model === "iPod" ? "iPod" : "iPhone";
  if (os.name === "Chrome OS") return "ChromeOS";
  return os.name || undefined;
}
