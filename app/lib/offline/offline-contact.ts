import { ReaderApiError } from "../reader/reader-api.ts";
import { eraseOfflineCopies, notifyCopiesChanged } from "./offline-books.ts";
import { type OfflineRead, offlineDb } from "./offline-db.ts";
import { fetchLiveLoans, reportReads } from "./offline-loan-api.ts";

type Deps = {
  fetchLoans?: typeof fetchLiveLoans;
  report?: typeof reportReads;
  forgetShell?: () => Promise<void>;
};

let running: Promise<void> | null = null;

/**
 * The contact check (issue 45): on a school page's load while online and when the connection comes
 * back. Pages read offline are reported first (then forgotten), then every copy whose loan the
 * server no longer lists for this session is erased (returned, expired, licence ended, teacher
 * disabled, signed out everywhere); a 401 erases every copy and the app shell's pages. A device
 * with no copy and nothing to report asks nothing. Concurrent calls share one check.
 */
export function checkOfflineContact(deps: Deps = {}): Promise<void> {
  running ??= contact(deps).finally(() => {
    running = null;
  });
  return running;
}

async function contact({ fetchLoans = fetchLiveLoans, report = reportReads, forgetShell = forgetAppShell }: Deps): Promise<void> {
  const db = await offlineDb();
  const [copies, reads] = await Promise.all([db.getAll("copies"), db.getAll("reads")]);
  if (copies.length === 0 && reads.length === 0) return;
  let loans: Awaited<ReturnType<typeof fetchLiveLoans>>;
  try {
    loans = await fetchLoans();
  } catch {
    return; // offline or the server away: the copies stay until the next contact (or their `until`)
  }
  if (loans === "signed-out") {
    await eraseOfflineCopies();
    await forgetShell().catch(() => {});
    return;
  }
  await reportAll(reads, report);
  const live = new Map(loans.map((loan) => [loan.bookId, loan]));
  const ended = copies.filter((copy) => live.get(copy.bookId)?.id !== copy.loanId).map((copy) => copy.bookId);
  if (ended.length) await eraseOfflineCopies(ended);
  // The server's `until` wins (an admin may shorten a licence): the device clock then checks it.
  const moved = copies.filter((copy) => !ended.includes(copy.bookId) && live.get(copy.bookId)?.until !== copy.until);
  for (const copy of moved) await db.put("copies", { ...copy, until: live.get(copy.bookId)!.until });
  if (moved.length) notifyCopiesChanged();
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

async function forgetAppShell(): Promise<void> {
  const { forgetOfflineShell } = await import("./app-shell.ts");
  await forgetOfflineShell();
}
