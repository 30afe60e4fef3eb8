import { useEffect, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { formatFileSize } from "../../../lib/format-size.ts";
import { buttonClasses } from "../../ui/button.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { cardClasses } from "../admin-page.tsx";
import type { SchoolExport as ExportItem } from "./export-calls.ts";

export const EXPORT_INTENT = "export-request";
/** How often the list is read again while an export is being prepared. */
const POLL_MS = 2_000;

type ExportAnswer = { intent: string; message: string } | { intent: string; error: string };

const preparing = (e: ExportItem) => e.state === "queued" || e.state === "building";

/**
 * "Export school data" (docs/decisions/0044), on the admin's school page and the coordinator's My
 * school: asks the page's action for an export (the job runs on the server's queue), then reads the
 * list again every 2 seconds while one is being prepared, and offers the ZIP once it is ready.
 */
export function SchoolExport({
  exports: initial,
  load,
  downloadHref,
}: {
  exports: ExportItem[];
  load: () => Promise<{ exports: ExportItem[] }>;
  downloadHref: (exportId: string) => string;
}) {
  const fetcher = useFetcher<ExportAnswer>({ key: "school-export" });
  // Without JavaScript the form posts as a page: its answer is the page's action data.
  const posted = useActionData<ExportAnswer>();
  const answer = fetcher.data ?? (posted?.intent === EXPORT_INTENT ? posted : undefined);
  const [polled, setPolled] = useState<ExportItem[] | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  // The loader's list is fresh after an action (the page revalidates): what was polled before it no longer counts.
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    setPolled(null);
  }
  const list = polled ?? initial;
  const busy = fetcher.state !== "idle";
  const waiting = list.some(preparing);
  const latestLoad = useRef(load);
  latestLoad.current = load;

  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    let asking = false;
    const timer = setInterval(() => {
      if (asking) return;
      asking = true;
      latestLoad.current().then(
        (answer) => {
          asking = false;
          if (stopped) return;
          setPollError(null);
          setPolled(answer.exports);
        },
        (error: Error) => {
          asking = false;
          if (!stopped) setPollError(error.message);
        },
      );
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [waiting]);

  return (
    <section className={cardClasses} aria-labelledby="school-export-title">
      <h2 id="school-export-title" className="font-semibold">
        School data export
      </h2>
      <p id="school-export-what" className="mt-1 mb-3 text-sm text-slate-600 dark:text-slate-400">
        One ZIP file with the school's record, its licences, its teachers (never their passwords), their sign-ins and reading, and each
        teacher's bookmarks, highlights and notes, with a README that describes each file. It is prepared on the server; you can leave this
        page and come back. Each export can be downloaded for 24 hours.
      </p>
      <fetcher.Form method="post" className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value={EXPORT_INTENT} />
        <button type="submit" className={buttonClasses("primary")} disabled={busy || waiting} aria-describedby="school-export-what">
          {busy ? <Spinner label="Asking for the export" className="h-4 w-4" /> : null}
          Export school data
        </button>
        {waiting && !busy ? <span className="text-sm text-slate-600 dark:text-slate-400">An export is being prepared.</span> : null}
      </fetcher.Form>
      {answer && "error" in answer ? (
        <div className="mt-3">
          <MessageBox text={answer.error} tone="error" />
        </div>
      ) : null}
      {pollError ? (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {pollError}
        </p>
      ) : null}
      {list.length > 0 ? (
        <ul className="mt-4 divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label="Exports of this school">
          {list.map((e) => (
            <ExportRow key={e.id} item={e} href={downloadHref(e.id)} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ExportRow({ item, href }: { item: ExportItem; href: string }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <p className="font-medium">
          Asked for <LocalDateTime value={item.requestedAt} />
        </p>
        <p className="text-xs text-slate-500">by {item.requestedBy}</p>
      </div>
      {/* Read out as it changes: Preparing, then ready or failed. */}
      <div aria-live="polite" className="flex items-center gap-3">
        {preparing(item) ? (
          <span className="inline-flex items-center gap-2 text-slate-700 dark:text-slate-300">
            <span aria-hidden="true">
              <Spinner label="" className="h-4 w-4" />
            </span>
            Preparing…{item.rows > 0 ? ` ${item.rows.toLocaleString("en-US")} rows so far` : ""}
          </span>
        ) : item.state === "ready" ? (
          <>
            <span className="text-xs text-slate-500">
              Until <LocalDateTime value={item.expiresAt} />
            </span>
            <a
              href={href}
              download
              className={buttonClasses("secondary", "px-3 py-1.5")}
              aria-label={`Download the school data export (ZIP, ${formatFileSize(item.size ?? 0)})`}
            >
              Download ZIP ({formatFileSize(item.size ?? 0)})
            </a>
          </>
        ) : (
          <span className="text-red-700 dark:text-red-300">{item.error ?? "The export could not be prepared."}</span>
        )}
      </div>
    </li>
  );
}
