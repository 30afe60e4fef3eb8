import { useState } from "react";
import { errorText } from "../../../lib/error-text.ts";
import { buttonClasses } from "../../ui/button.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { AccountSection } from "./section.tsx";

/** The teacher's own data as a ZIP (workers/exports/teacher-export.ts, docs/decisions/0044). */
export const MY_DATA_URL = "/api/teacher/my-data";
const FAILED = "Your data could not be downloaded. Please try again in a minute.";

/**
 * "Download my data": what Lectern holds about the teacher, built by the server as they download it.
 * A plain link without JavaScript; with it, the file is fetched here so the page can say it is
 * being prepared and show a refusal in words instead of a browser's failed download.
 */
export function DownloadMyData() {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function download(event: React.MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (state.busy) return;
    setState({ busy: true, error: null });
    try {
      const response = await fetch(MY_DATA_URL, { credentials: "same-origin" });
      if (!response.ok) throw new Error(errorText(await response.json().catch(() => null)) ?? FAILED);
      const blob = await response.blob();
      const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "lectern-my-data.zip";
      const url = URL.createObjectURL(blob);
      const link = Object.assign(document.createElement("a"), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: error instanceof Error && error.message !== "Failed to fetch" ? error.message : FAILED });
    }
  }

  return (
    <AccountSection
      id="my-data"
      title="Your data"
      description="Download what Lectern holds about you: your account, sign-ins, devices, reading, starred books, reading progress, and your bookmarks, highlights and notes, as one ZIP file with a README. Your password is never included."
    >
      <div className="flex flex-wrap items-center gap-3">
        <a
          href={MY_DATA_URL}
          download
          onClick={(event) => void download(event)}
          aria-disabled={state.busy || undefined}
          className={buttonClasses("secondary")}
        >
          {state.busy ? <Spinner label="Preparing your file" className="h-4 w-4" /> : null}
          Download my data
        </a>
        {state.busy ? <span className="text-sm text-slate-600 dark:text-slate-400">Preparing your file…</span> : null}
      </div>
      {state.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {state.error}
        </p>
      ) : null}
    </AccountSection>
  );
}
