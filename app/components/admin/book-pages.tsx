import { useEffect, useRef, useState } from "react";
import type { PagesStatus } from "../../lib/pages/browser-pages.client.ts";
import type { PrepareProgress } from "../../lib/pages/prepare-pages.ts";
import { Button } from "../ui/button.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { MessageBox } from "../ui/message-box.tsx";

type Job =
  | { status: "running"; progress: PrepareProgress }
  | { status: "error"; message: string }
  | { status: "stopped" }
  | { status: "removed"; message: string }
  | { status: "idle" };

/** What the panel says once the admin pressed Stop: nothing went wrong, so it is a notice, not an error. */
const STOPPED = "Stopped. The pages prepared so far are kept; continue at any time.";

/** A PDF the admin has just uploaded, handed from the upload to this panel so it need not be downloaded again. */
const uploadedFiles = new Map<number, File>();
export function handOverUploadedPdf(bookId: number, file: File) {
  uploadedFiles.set(bookId, file);
}

const pagesModule = () => import("../../lib/pages/browser-pages.client.ts");

/**
 * The state of a book's pages (`status`, from the page's loader; `onChanged` reloads it), and the
 * job that prepares them in this browser. It starts by itself when pages are missing (after an
 * upload, or when the admin reopens a book whose preparation stopped) and resumes where it
 * stopped: the server knows which pages exist, and is asked again just before the job starts.
 */
export function AdminBookPages({ bookId, status, onChanged }: { bookId: number; status: PagesStatus; onChanged: () => void }) {
  const [job, setJob] = useState<Job>({ status: "idle" });
  const abort = useRef<AbortController | null>(null);

  async function run() {
    const { pagesStatus, prepareBookPages, resumeSource } = await pagesModule();
    let current: PagesStatus;
    try {
      current = await pagesStatus(bookId);
    } catch (error) {
      setJob({ status: "error", message: (error as Error).message });
      return;
    }
    const file = uploadedFiles.get(bookId);
    const source = current.preparing && file ? file : resumeSource(bookId, current);
    if (!source) return;
    const controller = new AbortController();
    abort.current = controller;
    setJob({
      status: "running",
      progress: { done: current.preparing?.done.length ?? 0, failed: [], total: current.preparing?.pageCount ?? 0 },
    });
    let removed = false;
    try {
      await prepareBookPages(bookId, source, (progress) => setJob({ status: "running", progress }), controller.signal);
      uploadedFiles.delete(bookId);
      setJob({ status: "idle" });
    } catch (error) {
      // The book was added with this PDF and went with it (BookRemovedError): its page is not reloaded.
      removed = (error as Error).name === "BookRemovedError";
      if (removed) setJob({ status: "removed", message: (error as Error).message });
      else setJob(controller.signal.aborted ? { status: "stopped" } : { status: "error", message: (error as Error).message });
    } finally {
      abort.current = null;
      if (!removed) onChanged();
    }
  }

  const missing = Boolean(status.preparing) || (status.hasPdf && !status.ready);
  // biome-ignore lint/correctness/useExhaustiveDependencies: starts once when the state says pages are missing
  useEffect(() => {
    if (missing && job.status === "idle" && !abort.current) void run();
  }, [missing]);
  useEffect(() => () => abort.current?.abort(), []);

  const ready = status.ready;

  return (
    <section aria-labelledby="pages-heading" className="space-y-2 text-sm">
      <h3 id="pages-heading" className="font-semibold">
        Pages for teachers
      </h3>
      {job.status === "running" && <PreparingBar progress={job.progress} onStop={() => abort.current?.abort()} />}
      {job.status !== "running" && ready && !status.preparing && (
        <p>
          <span className="font-medium text-emerald-700 dark:text-emerald-400">Ready</span>: {ready.pageCount} pages
          {ready.failed.length ? `, ${ready.failed.length} of them could not be rendered` : ""}.
        </p>
      )}
      {job.status !== "running" && status.preparing && (
        <p>
          Preparing pages {status.preparing.done.length + status.preparing.failed.length} of {status.preparing.pageCount ?? "?"}
          {ready ? " (teachers read the previous pages until these are ready)" : " (teachers can open the book once they are ready)"}.
        </p>
      )}
      {!status.hasPdf && !status.preparing && <p className="text-slate-500">No PDF yet: add one to prepare its pages.</p>}
      <FailedPages
        failed={[...(job.status === "running" ? job.progress.failed : []), ...(ready?.failed ?? []), ...(status.preparing?.failed ?? [])]}
      />
      {job.status === "removed" && (
        <div className="space-y-2">
          <MessageBox text={job.message} />
          <ButtonLink to="/admin/books" variant="secondary">
            Back to the books
          </ButtonLink>
        </div>
      )}
      {(job.status === "error" || job.status === "stopped") && (
        <div className="space-y-2">
          {job.status === "error" ? <MessageBox text={job.message} /> : <MessageBox text={STOPPED} tone="info" />}
          {missing && (
            <Button variant="secondary" onClick={() => void run()}>
              Continue preparing pages
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

function PreparingBar({ progress, onStop }: { progress: PrepareProgress; onStop: () => void }) {
  const handled = progress.done + progress.failed.length;
  const fraction = progress.total ? handled / progress.total : 0;
  return (
    <div className="space-y-1">
      <p aria-live="polite">{progress.total ? `Preparing pages ${handled} of ${progress.total}` : "Opening the PDF..."}</p>
      <div className="flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Pages prepared"
          aria-valuenow={handled}
          aria-valuemin={0}
          aria-valuemax={progress.total || 1}
          className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
        >
          <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${Math.round(fraction * 100)}%` }} />
        </div>
        <Button variant="secondary" onClick={onStop}>
          Stop
        </Button>
      </div>
    </div>
  );
}

function FailedPages({ failed }: { failed: { n: number; error: string }[] }) {
  const unique = [...new Map(failed.map((f) => [f.n, f])).values()].sort((a, b) => a.n - b.n);
  if (!unique.length) return null;
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      <p className="font-medium">
        {unique.length === 1 ? "1 page could not be rendered" : `${unique.length} pages could not be rendered`}; teachers see a notice in
        its place:
      </p>
      <ul className="mt-1 list-disc pl-5">
        {unique.slice(0, 20).map((f) => (
          <li key={f.n}>
            Page {f.n}: {f.error}
          </li>
        ))}
        {unique.length > 20 && <li>and {unique.length - 20} more</li>}
      </ul>
    </div>
  );
}
