import { ReaderApiError } from "../reader/reader-api.ts";
import { forgetOfflineShell } from "./app-shell.ts";
import { eraseOfflineCopies, notifyCopiesChanged } from "./offline-books.ts";
import { type OfflineRead, offlineDb } from "./offline-db.ts";
import { fetchLiveLoans, reportReads } from "./offline-loan-api.ts";

type Deps = {
  fetchLoans?: typeof fetchLiveLoans;
  report?: typeof reportReads;
  forgetShell?: () => Promise<void>;
};

/**
 * What a check found: nothing to check on this device, the server not reached (offline, or a
 * network that does not reach it: `navigator.onLine` alone cannot tell), checked, or signed out.
 */
export type ContactResult = "nothing" | "unreachable" | "checked" | "signed-out";
export const CONTACT_EVENT = "lectern:offline-contact";

let running: Promise<ContactResult> | null = null;
let last: ContactResult | null = null;

/** The last check's result in this page (null before one ended). */
export const lastContactResult = () => last;

/**
 * The contact check (issue 45): on a school page's load while online and when the connection comes
 * back. Pages read offline are reported first (then forgotten), then every copy whose loan the
 * server no longer lists for this session is erased (returned, expired, licence ended, teacher
 * disabled, signed out everywhere); a 401 erases every copy and the app shell's pages. A device
 * with no copy and nothing to report asks nothing. Concurrent calls share one check.
 */
export function checkOfflineContact(deps: Deps = {}): Promise<ContactResult> {
  running ??= contact(deps)
    .then((result) => {
      last = result;
      if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(CONTACT_EVENT, { detail: result }));
      return result;
    })
    .finally(() => {
      running = null;
    });
  return running;
}

async function contact({
  fetchLoans = fetchLiveLoans,
  report = reportReads,
  forgetShell = forgetOfflineShell,
}: Deps): Promise<ContactResult> {
  const db = await offlineDb();
  const [copies, reads] = await Promise.all([db.getAll("copies"), db.getAll("reads")]);
  if (copies.length === 0 && reads.length === 0) return "nothing";
  let loans: Awaited<ReturnType<typeof fetchLiveLoans>>;
  try {
    loans = await fetchLoans();
  } catch {
    return "unreachable"; // the copies stay until the next contact (or their `until`)
  }
  if (loans === "signed-out") {
    await eraseOfflineCopies();
    await forgetShell().catch(() => {});
    return "signed-out";
  }
  await reportAll(reads, report);
  const live = new Map(loans.map((loan) => [loan.bookId, loan]));
  const ended = copies.filter((copy) => live.get(copy.bookId)?.id !== copy.loanId).map((copy) => copy.bookId);
  if (ended.length) await eraseOfflineCopies(ended);
  // The server's `until` wins (an admin may shorten a licence): the device clock then checks it.
  const moved = copies.filter((copy) => !ended.includes(copy.bookId) && live.get(copy.bookId)?.until !== copy.until);
  for (const copy of moved) await db.put("copies", { ...copy, until: live.get(copy.bookId)!.until });
  if (moved.length) notifyCopiesChanged();
  return "checked";
}

/**
 * One report per loan; the reads it carried are forgotten once the server answered, or refused
 * for good (a 4xx: the loan is not this session's any more); kept for the next contact when the
 * server could not take them (a 5xx, the connection).
 */
async function reportAll(reads: OfflineRead[], report: typeof reportReads): Promise<void> {
  const byLoan = new Map<string, OfflineRead[]>();
  for (const read of reads) byLoan.set(read.loanId, [...(byLoan.get(read.loanId) ?? []), read]);
  const db = await offlineDb();
  for (const [loanId, some] of byLoan) {
    try {
      await report(
        some[0]!.bookId,
        loanId,
        some.map(({ n, at }) => ({ n, at })),
      );
    } catch (error) {
      const forGood = error instanceof ReaderApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
      if (!forGood) continue;
    }
    const tx = db.transaction("reads", "readwrite");
    await Promise.all([...some.map((read) => tx.store.delete([read.loanId, read.n, read.day])), tx.done]);
  }
}
