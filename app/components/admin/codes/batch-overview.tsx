import { useState } from "react";
import type { BatchSummary } from "../../../../workers/codes/batches.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses } from "../admin-page.tsx";
import { ConfirmForm, RowNotice, useRowActions } from "../school/ask-first.tsx";
import { BatchStateBadge } from "./batches-table.tsx";
import { lengthText, offlineText, redeemByText, seatsText } from "./terms.ts";

export const WITHDRAW_BATCH_INTENT = "withdraw-batch";

/**
 * A batch's terms and counts, and "Withdraw batch" (asks first): its unused codes redeem no more,
 * the redeemed ones and the licences they gave stay.
 */
export function BatchOverview({ batch }: { batch: BatchSummary }) {
  const { fetcher, answer } = useRowActions<never>("withdraw-batch", (intent) => intent === WITHDRAW_BATCH_INTENT);
  const [asking, setAsking] = useState(false);
  const unused = batch.issued - batch.redeemed - batch.revoked;
  const counts: [string, number][] = [
    ["Issued", batch.issued],
    ["Redeemed", batch.redeemed],
    ["Withdrawn", batch.revoked],
    ["Unused", unused],
  ];
  return (
    <section className={`${cardClasses} space-y-4`} aria-labelledby="batch-terms-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="batch-terms-title" className="flex items-center gap-3 font-semibold">
          Terms <BatchStateBadge batch={batch} />
        </h2>
        {batch.revokedAt === null && (
          <Button variant="secondary" aria-haspopup="dialog" disabled={fetcher.state !== "idle"} onClick={() => setAsking(true)}>
            Withdraw batch
          </Button>
        )}
      </div>
      <RowNotice answer={answer} focusOn={fetcher.data} />
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Books</dt>
        <dd>{batch.books.map((book) => book.title).join(", ")}</dd>
        <dt className="font-medium">Licence</dt>
        <dd>{lengthText(batch)}</dd>
        <dt className="font-medium">Readers</dt>
        <dd>{seatsText(batch.seats)}</dd>
        <dt className="font-medium">Offline</dt>
        <dd>{offlineText(batch)}</dd>
        <dt className="font-medium">Redeeming</dt>
        <dd>{redeemByText(batch.redeemBy)}</dd>
        <dt className="font-medium">Made</dt>
        <dd>
          <LocalDateTime value={batch.createdAt} /> by {batch.createdBy}
        </dd>
        {batch.revokedAt !== null && (
          <>
            <dt className="font-medium">Withdrawn</dt>
            <dd>
              <LocalDateTime value={batch.revokedAt} />
            </dd>
          </>
        )}
      </dl>
      <ul className="grid gap-3 sm:grid-cols-4" aria-label="Codes of the batch">
        {counts.map(([name, value]) => (
          <li key={name} className="rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
            <span className="block text-xs uppercase tracking-wide text-slate-500">{name}</span>
            <span className="text-lg font-semibold tabular-nums">{value.toLocaleString("en-US")}</span>
          </li>
        ))}
      </ul>
      <Dialog
        id="withdraw-batch-dialog"
        open={asking}
        onClose={() => setAsking(false)}
        title={`Withdraw batch ${batch.id} (${batch.label})?`}
        description={`Its ${unused.toLocaleString("en-US")} unused code(s) can no longer be redeemed; a school that tries one is told the publisher withdrew it. The ${batch.redeemed.toLocaleString("en-US")} redeemed code(s) and the licences they gave stay. This cannot be undone.`}
      >
        <ConfirmForm Form={fetcher.Form} fields={{ intent: WITHDRAW_BATCH_INTENT }} onClose={() => setAsking(false)}>
          Withdraw batch
        </ConfirmForm>
      </Dialog>
    </section>
  );
}
