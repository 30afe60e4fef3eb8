/**
 * How long personal data is kept after it stops being used (docs/decisions/0045): the one place the
 * periods live. The scheduled purge (workers/retention/purge.ts), the reports' housekeeping
 * (workers/reports/housekeeping.ts) and the school object's own tidying read them from here; a page
 * that tells a teacher what is kept about them may show them too.
 *
 * A row's lifetime (a session's 14 days, a code's 10 minutes) belongs to the rule that enforces it;
 * these are how long the row stays once that lifetime is over.
 */

export const DAY_MS = 86_400_000;

/**
 * An ended session (D1 `sessions`, the school object's `sessions`), counted from its last possible
 * end: a teacher an admin disabled who comes back within it, cookie in hand, is told the account was
 * disabled rather than only that they are signed out.
 */
export const ENDED_SESSION_KEPT_DAYS = 14;

/** A one-time code after it expired: the limit on codes sent counts the last hour's; a day is ample. */
export const EXPIRED_CODE_KEPT_DAYS = 1;

/** A provider sign-in's row (usable for 10 minutes, taken when used), from when it began. */
export const SIGN_IN_REQUEST_KEPT_MS = 3600_000;

/** A throttle counter after its window began (the longest window is an hour); never while it still blocks. */
export const RATE_LIMIT_KEPT_DAYS = 1;

/** Per-teacher reading rows and sign-in events: a 366-day report and a month to spare (decision 19). */
export const TEACHER_USAGE_KEPT_DAYS = 400;

/** The audit log: the licence in force and the whole of the one before it, for invoices and their disputes. */
export const AUDIT_LOG_KEPT_DAYS = 730;

/** A leak trace's entry (it names the teachers a mark pointed to): time to act and to dispute, then a suspicion goes. */
export const LEAK_TRACE_KEPT_DAYS = 365;

/** The audit action a leak trace is recorded under (workers/api/leaks.ts). */
export const LEAK_TRACE_ACTION = "leak.trace";

/** A period as a page says it: "2 years", "1 year", "400 days". */
export function periodText(days: number): string {
  if (days % 365 !== 0) return `${days} days`;
  const years = days / 365;
  return `${years} ${years === 1 ? "year" : "years"}`;
}

/** What the audit log's page tells a superadmin, so no entry goes without warning. */
export const AUDIT_RETENTION_NOTE = `Entries are kept ${periodText(AUDIT_LOG_KEPT_DAYS)}, leak traces ${periodText(LEAK_TRACE_KEPT_DAYS)}, and then removed: export what an invoice or a dispute needs before then.`;
