import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { ApiError } from "../../lib/api-client.ts";
import { Button } from "../ui/button.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { LocalDateTime } from "../ui/local-date-time.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { CancelPreparation } from "./preparation/cancel-preparation.tsx";
import { FailedPages } from "./preparation/failed-pages.tsx";
import {
  type BookPages,
  bookPagesKey,
  cancelPreparation,
  fetchBookPages,
  outcomeText,
  prepareAgain,
  retryPage,
} from "./preparation/preparation-calls.ts";
import { PreparingProgress } from "./preparation/progress-bar.tsx";

/** How often the panel asks while the platform prepares the pages; and otherwise, to notice an upload made elsewhere (a script, another tab). */
export const PREPARING_POLL_MS = 2_000;
export const IDLE_POLL_MS = 30_000;

export const CLOSE_TAB_NOTICE = "You can close this page: the pages are prepared on the server.";

/** A book added with its PDF goes when that PDF is refused: its page polls a 404 that says why. */
function removedMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 404) return null;
  const body = error.body as { bookRemoved?: boolean } | null;
  return body?.bookRemoved ? error.message : null;
}

/**
 * "Pages for teachers" on the book page: the platform's work on the book's pages, live (polled while
 * being prepared), with a "Try again" per failed page and Cancel while it runs, and "Prepare again"
 * once the book is ready with failed pages. `initial` is the loader's answer; `onChanged` reloads
 * the page when a preparation ends (the book's PDF and page count change then).
 */
export function AdminBookPages({ bookId, initial, onChanged }: { bookId: number; initial: BookPages; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const key = bookPagesKey(bookId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchBookPages(bookId),
    initialData: initial,
    staleTime: PREPARING_POLL_MS,
    refetchInterval: (q) => (removedMessage(q.state.error) ? false : q.state.data?.preparing ? PREPARING_POLL_MS : IDLE_POLL_MS),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const retry = useMutation({
    mutationFn: ({ setId, n }: { setId: string; n: number }) => retryPage(bookId, setId, n),
    onSettled: refresh,
  });
  const again = useMutation({ mutationFn: () => prepareAgain(bookId), onSettled: refresh });

  const status = query.data;
  const preparingId = status.preparing?.id ?? null;
  const previous = useRef(preparingId);
  // A preparation that ends (ready, refused or cancelled) changes the book itself: its page is reloaded.
  useEffect(() => {
    if (previous.current && previous.current !== preparingId) onChanged();
    previous.current = preparingId;
  }, [preparingId, onChanged]);

  const removed = removedMessage(query.error);
  if (removed)
    return (
      <PagesSection>
        <MessageBox text={removed} />
        <ButtonLink to="/admin/books" variant="secondary">
          Back to the books
        </ButtonLink>
      </PagesSection>
    );

  const { ready, preparing, latest } = status;
  // The latest outcome is newer than the ready pages' own: a refusal there is the last upload's.
  const refusedLast = !preparing && latest?.outcome === "refused" ? latest : null;
  const actionError = (retry.error ?? again.error) as Error | null;
  return (
    <PagesSection>
      {preparing && (
        <div className="space-y-2">
          <PreparingProgress handled={preparing.done.length + preparing.failed.length} total={preparing.pageCount} label="Pages prepared" />
          <p className="text-slate-600 dark:text-slate-400">
            Started <LocalDateTime value={preparing.startedAt} />
            {preparing.startedBy ? ` by ${preparing.startedBy}` : ""}.{" "}
            {ready ? "Teachers read the current pages until these are ready." : "Teachers can open the book once its pages are ready."}
          </p>
          <p className="text-slate-600 dark:text-slate-400">{CLOSE_TAB_NOTICE}</p>
          <FailedPages
            failed={preparing.failed}
            retrying={retry.isPending ? (retry.variables?.n ?? null) : null}
            onRetry={(n) => retry.mutate({ setId: preparing.id, n })}
          />
          <CancelPreparation
            id="cancel-preparation-dialog"
            label="Cancel preparing these pages"
            newPdf={preparing.newPdf}
            hasReadyPages={Boolean(ready)}
            onConfirm={async () => {
              await cancelPreparation(bookId, preparing.id);
              await refresh();
            }}
          />
        </div>
      )}
      {!preparing && ready && (
        <div className="space-y-2">
          <p role="status">
            <span className="font-medium text-emerald-700 dark:text-emerald-400">
              {outcomeText({ outcome: "ready", pageCount: ready.pageCount, failedPages: ready.failed.length, message: null })}
            </span>
            .
          </p>
          <FailedPages failed={ready.failed} />
          {ready.failed.length > 0 && status.hasPdf && (
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="secondary" disabled={again.isPending} onClick={() => again.mutate()}>
                {again.isPending ? "Starting..." : "Prepare again"}
              </Button>
              <span className="text-slate-600 dark:text-slate-400">
                Every page is prepared anew; teachers keep the current pages meanwhile.
              </span>
            </div>
          )}
        </div>
      )}
      {refusedLast && <MessageBox text={`${outcomeText(refusedLast)}.${ready ? " Teachers keep the current pages." : ""}`} />}
      {!preparing && !ready && status.hasPdf && (
        <div className="flex flex-wrap items-center gap-3">
          {!refusedLast && <p>The pages of this PDF have not been prepared.</p>}
          <Button variant="secondary" disabled={again.isPending} onClick={() => again.mutate()}>
            {again.isPending ? "Starting..." : refusedLast ? "Prepare again" : "Prepare pages"}
          </Button>
        </div>
      )}
      {!status.hasPdf && !preparing && !refusedLast && <p className="text-slate-500">No PDF yet: add one to prepare its pages.</p>}
      {actionError && <MessageBox text={actionError.message} />}
      {query.isError && <MessageBox text={`${(query.error as Error).message}. Trying again...`} tone="warning" />}
    </PagesSection>
  );
}

function PagesSection({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="pages-heading" className="space-y-2 text-sm">
      <h3 id="pages-heading" className="font-semibold">
        Pages for teachers
      </h3>
      {children}
    </section>
  );
}
