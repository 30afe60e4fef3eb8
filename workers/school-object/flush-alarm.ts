/**
 * The school object's one alarm (docs/decisions/0024, 0045): it flushes usage to D1 at most
 * FLUSH_INTERVAL_MS after the first unflushed event, and with no flush due it comes back when the
 * earliest session row is due to go (tidy.ts). Kept apart from the class (school-object.ts), which
 * holds one of these and hands it the school's id when it flushes.
 */
import { getDb } from "../db/client.ts";
import { forgetEndedLoans, settleLoans } from "./loans.ts";
import { FLUSH_INTERVAL_MS } from "./policy.ts";
import * as reading from "./reading.ts";
import * as seats from "./seats.ts";
import * as sessions from "./sessions.ts";
import { nextTidyAt } from "./tidy.ts";
import * as usage from "./usage.ts";

export class FlushAlarm {
  /** Whether a flush's alarm is set (a tidying alarm does not count). */
  set = false;
  private flushing: Promise<number> | null = null;

  constructor(
    private readonly storage: DurableObjectStorage,
    /** Read at each flush, not kept: the object's env is what the runtime (or a test's faulty D1) holds now. */
    private readonly db: () => D1Database,
  ) {}

  /** Something was left for the next flush: the alarm is set once per batch, FLUSH_INTERVAL_MS from now. */
  schedule(now: number) {
    if (this.set) return;
    this.set = true;
    void this.storage.getAlarm().then((at) => {
      // A tidying alarm days away (armTidy) gives way to the flush's.
      if (at === null || at > now + FLUSH_INTERVAL_MS) return this.storage.setAlarm(now + FLUSH_INTERVAL_MS);
    });
  }

  /**
   * With no flush due, the alarm is set for when the earliest session row is due to go (tidy.ts),
   * unless an alarm is set already (a flush's comes sooner and tidies too). `set` is read after
   * the await: a flush scheduled meanwhile must not be pushed back by this.
   */
  async armTidy(now: number): Promise<void> {
    // The alarm first: most calls (every sign-in) find one set and skip the scan of the sessions.
    if (this.set || (await this.storage.getAlarm()) !== null || this.set) return;
    const due = nextTidyAt(this.storage.sql);
    if (due !== null) await this.storage.setAlarm(Math.max(due, now));
  }

  /** Sends the unflushed usage of the school to D1 now; how many rows went. One flush at a time. */
  async flush(schoolId: number | null): Promise<number> {
    // An alarm and a report's flush arriving together wait for each other.
    while (this.flushing) await this.flushing.catch(() => {});
    this.flushing = schoolId === null ? Promise.resolve(0) : usage.sendUsage(this.storage, getDb(this.db()), schoolId);
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  /** The alarm itself: flush, set again if usage is left, tidy what ended or went idle, then arm the tidying. */
  async ring(schoolId: number | null): Promise<void> {
    this.set = false;
    // A throw leaves the batch in place and the runtime retries the alarm; the batch keeps its number.
    await this.flush(schoolId);
    if (usage.hasUnflushed(this.storage.sql)) {
      this.set = true;
      await this.storage.setAlarm(Date.now() + FLUSH_INTERVAL_MS);
    }
    // What ended or went idle is tidied: ended sessions kept a while, budgets past their windows, seats no one read lately.
    const now = Date.now();
    sessions.forgetEndedSessions(this.storage.sql, now);
    settleLoans(this.storage.sql, now);
    forgetEndedLoans(this.storage.sql, now);
    reading.forgetEndedBudgets(this.storage.sql, now);
    seats.forgetIdleSeats(this.storage.sql, now);
    // A quiet object comes back when its next session row is due to go (tidy.ts).
    await this.armTidy(now);
  }
}
