import { Link } from "react-router";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { outcomeText, type PreparationNotice } from "./preparation-calls.ts";

/** What became of each book prepared in the last 30 days, the admin's own first. */
export function PreparationNotices({ notices }: { notices: PreparationNotice[] }) {
  if (!notices.length) return <p className="text-sm text-slate-600 dark:text-slate-400">Nothing was prepared in the last 30 days.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
      {notices.map((notice) => (
        <li key={notice.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <div>
            {notice.bookId && notice.outcome === "ready" ? (
              <Link to={`/admin/book/${notice.bookId}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                {notice.title}
              </Link>
            ) : (
              <span className="font-medium">{notice.title}</span>
            )}
            <p className={notice.outcome === "refused" ? "text-red-700 dark:text-red-300" : "text-emerald-700 dark:text-emerald-400"}>
              {outcomeText(notice)}
            </p>
          </div>
          <p className="text-xs text-slate-500">
            <LocalDateTime value={notice.at} />
            {notice.mine ? " · your upload" : notice.by ? ` · ${notice.by}` : ""}
          </p>
        </li>
      ))}
    </ul>
  );
}
