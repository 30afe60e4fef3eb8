import { forgetOfflineShell } from "./app-shell.ts";
import { eraseOfflineCopies } from "./offline-books.ts";
import { forgetOutbox } from "./outbox.ts";

/**
 * What signing out leaves of a teacher on this browser: nothing. Loaded by the school shell after
 * it hydrates (app/components/school/account-menu.tsx), so the code is there when Sign out is
 * pressed, offline too, without weighing on the page's first load.
 */
export async function forgetOfflineTeacher(): Promise<void> {
  // Nothing of this teacher's pages may open offline after signing out (docs/decisions/0049).
  await forgetOfflineShell();
  // And the books kept for offline: their keys were this session's (docs/decisions/0052).
  await eraseOfflineCopies().catch(() => {});
  // And the changes waiting to be sent: the next person on this browser must not send them (docs/decisions/0051).
  await forgetOutbox().catch(() => {});
}
