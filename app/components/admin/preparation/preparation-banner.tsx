import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { fetchNotices, noticesKey, outcomeText } from "./preparation-calls.ts";

/** The banner asks this often (only while the tab is shown: TanStack Query pauses polling in a hidden tab). */
export const NOTICE_POLL_MS = 20_000;

/** The banner names this many books; the rest are counted, and listed on the Preparation page. */
const SHOWN = 3;

const seenKey = (adminId: number) => `lectern.preparation-seen.${adminId}`;

function readSeen(adminId: number): number | null {
  const value = Number(localStorage.getItem(seenKey(adminId)));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/**
 * Tells the admin when a book they uploaded is ready or refused, on any page of the console. What
 * they dismissed is remembered in this browser (the last notice id), so each outcome is told once;
 * the Preparation page keeps them all for 30 days.
 */
export function PreparationBanner({ adminId }: { adminId: number }) {
  // undefined until the browser has read what was dismissed (the server renders no banner).
  const [seen, setSeen] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    setSeen(readSeen(adminId));
    const onStorage = (event: StorageEvent) => event.key === seenKey(adminId) && setSeen(readSeen(adminId));
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [adminId]);
  const query = useQuery({
    queryKey: noticesKey(seen ?? null),
    queryFn: () => fetchNotices(seen ?? null),
    enabled: seen !== undefined,
    refetchInterval: NOTICE_POLL_MS,
  });
  const notices = query.data?.notices ?? [];
  if (!notices.length) return null;

  function dismiss() {
    const latest = Math.max(...notices.map((notice) => notice.id));
    localStorage.setItem(seenKey(adminId), String(latest));
    setSeen(latest);
  }

  return (
    <section
      aria-label="Your books' pages"
      className="border-b border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 sm:px-6 lg:px-8 dark:border-indigo-900 dark:bg-indigo-950/60 dark:text-indigo-100"
    >
      <div className="flex items-start gap-4">
        {/* The live region wraps the list: a list given role="status" is no longer a list to screen readers (axe). */}
        <div role="status" className="flex-1">
          <ul className="space-y-1">
            {notices.slice(0, SHOWN).map((notice) => (
              <li key={notice.id}>
                <span className="font-medium">{notice.title}</span>: {outcomeText(notice)}.{" "}
                {notice.outcome === "ready" && notice.bookId ? (
                  <Link to={`/admin/book/${notice.bookId}`} className="underline">
                    Open the book
                  </Link>
                ) : (
                  <Link to="/admin/preparation" className="underline">
                    See preparation
                  </Link>
                )}
              </li>
            ))}
            {notices.length > SHOWN && (
              <li>
                And {notices.length - SHOWN} more:{" "}
                <Link to="/admin/preparation" className="underline">
                  see preparation
                </Link>
              </li>
            )}
          </ul>
        </div>
        <button
          type="button"
          onClick={dismiss}
          className="rounded-md px-2 py-1 font-medium hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:hover:bg-indigo-900"
        >
          Dismiss
        </button>
      </div>
    </section>
  );
}
