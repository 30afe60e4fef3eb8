/**
 * The school object's policy (docs/decisions/0024, 0028, 0042): how long a teacher's session
 * lives, how reading time is counted, how long a seat is held, how often usage leaves for D1.
 * It lives with the object that enforces it; the domain modules that call the object read it
 * from here (the teacher's cookie lifetime, the D1 rollups written straight for the seed), never
 * the other way round. (The object does use two of its callers' rules: the page budget,
 * workers/reading/page-budget.ts, and the signed-out sentences, workers/auth/signed-out.ts.)
 */
import { DAY_MS, ENDED_SESSION_KEPT_DAYS } from "#shared/rules/retention.ts";

/**
 * A teacher's session (docs/decisions/0006-teacher-accounts.md): signed out after 3 days without
 * use and after 14 days in any case.
 */
export const TEACHER_SESSION_LIFETIME = { idleMs: 3 * 24 * 3600_000, absoluteMs: 14 * 24 * 3600_000 } as const;

/**
 * How long an ended session's row is kept: a teacher an admin disabled who comes back within it,
 * cookie in hand, is told that the account was disabled rather than only that they are signed out.
 * The period is one of the retention periods (shared/rules/retention.ts, docs/decisions/0045).
 */
export const ENDED_SESSION_KEPT_MS = ENDED_SESSION_KEPT_DAYS * DAY_MS;

/** Writing last-seen on every request would be a storage write per page view; five minutes is enough for idle expiry. */
export const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** The longest gap between two events of one teacher that still counts as reading time. */
export const READING_GAP_CAP_MS = 5 * 60_000;

/**
 * A teacher holds a seat of a book while they have read a page of it in the last 10 minutes, until
 * they close it, or until their last session ends (or an admin or coordinator frees it).
 */
export const SEAT_HOLD_MS = 10 * 60_000;

/** How long usage waits in the object before the alarm sends it to D1. */
export const FLUSH_INTERVAL_MS = 5 * 60_000;

/** At most this many rows go in one flush statement; a bigger backlog takes several. */
export const FLUSH_ROWS = 2_000;
