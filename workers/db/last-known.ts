/**
 * A read with a fallback on what was read before (docs/decisions/0047): when D1 is away (the
 * read throws a platform failure, kernel/platform-failure.ts) or slower than `deadlineMs`, the last
 * known value is answered instead, if there is one. Only for data whose staleness something else
 * bounds: a ready page set never changes; a page view's book is checked against the school's
 * catalogue version by the school's object on every view (workers/reading/open-book.ts).
 */
import { log } from "../kernel/log.ts";
import { platformPart } from "../kernel/platform-failure.ts";

/** How long a page view waits for D1 when it has a last known answer to fall back on. */
export const FALLBACK_DEADLINE_MS = 1_500;

const LATE = Symbol("late");

export async function readOrLastKnown<T>(read: () => Promise<T>, lastKnown: T | undefined, deadlineMs = FALLBACK_DEADLINE_MS): Promise<T> {
  if (lastKnown === undefined) return read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), deadlineMs);
  });
  const reading = read();
  try {
    const answer = await Promise.race([reading, late]);
    if (answer !== LATE) return answer;
    // The read goes on without us: its answer (or failure) is no one's.
    reading.catch(() => {});
    log.warn("D1 slower than the page view waits: the last known answer is used", { deadlineMs });
    return lastKnown;
  } catch (error) {
    if (platformPart(error)?.part !== "database") throw error;
    log.warn("D1 unavailable: the last known answer is used", { error });
    return lastKnown;
  } finally {
    clearTimeout(timer);
  }
}
