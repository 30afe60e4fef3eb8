/**
 * The school object's own retention (docs/decisions/0045). What an object holds about teachers
 * goes on that object's alarm, so no job has to reach every school's object: at 50,000 schools an
 * hourly call to each would be 1.2 million object requests a day, nearly all to find nothing.
 *
 * The alarm that flushes usage (flush-alarm.ts) also tidies: ended sessions after
 * ENDED_SESSION_KEPT_MS, budgets past their windows, idle seats, and (in the flush) reading marks and
 * seat figures of days before yesterday. An object that goes quiet would never flush again, so
 * whenever it holds a session and no flush is due, its alarm is set for the moment the earliest
 * session row is due to go: on opening a session, at the end of every alarm, and when the object
 * starts (objects made before this rule had no such alarm). That alarm comes back until the last
 * row has gone; an object with no session sets none.
 */
import { ENDED_SESSION_KEPT_MS } from "./policy.ts";

/** When the earliest session row is due to go (14 days after its last possible end); null with none. */
export function nextTidyAt(sql: SqlStorage): number | null {
  // A scan of the school's sessions (no index on expires_at): a few thousand rows at most, once per alarm.
  const { at } = sql.exec<{ at: number | null }>("SELECT min(expires_at) AS at FROM sessions").one();
  return at === null ? null : at + ENDED_SESSION_KEPT_MS;
}
