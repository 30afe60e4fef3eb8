import { Form, Link } from "react-router";
import type { CodeRow, CodeStatus } from "../../../../workers/codes/batches.ts";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { Options } from "../../ui/options.tsx";
import { cardClasses, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";
import { AskFirstButton, ConfirmDialog, RowNotice, useRowActions } from "../school/ask-first.tsx";

export const WITHDRAW_CODE_INTENT = "withdraw-code";

/** A code's states as the page names them (the API says revoked, the page withdrawn). */
export const CODE_STATUS_NAMES: Record<CodeStatus, string> = {
  unused: "Unused",
  redeemed: "Redeemed",
  revoked: "Withdrawn",
  expired: "Expired",
};

const linkClasses = "rounded-md border border-slate-300 px-3 py-1.5 dark:border-slate-700";

/**
 * The batch's codes, a page at a time (by the URL: `?status=&page=`): each one's last four, state,
 * the school that redeemed it and when; "Withdraw" for an unused one (asks first).
 */
export function BatchCodes({
  codes,
  total,
  status,
  page,
  pageSize,
}: {
  codes: CodeRow[];
  total: number;
  status: CodeStatus | null;
  page: number;
  pageSize: number;
}) {
  const { fetcher, answer, confirm, setConfirm, busy } = useRowActions<CodeRow>("batch-codes", (intent) => intent === WITHDRAW_CODE_INTENT);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const href = (to: number) => `?${new URLSearchParams({ ...(status ? { status } : {}), page: String(to) }).toString()}`;
  const first = (page - 1) * pageSize + 1;
  return (
    <section className={cardClasses} aria-labelledby="batch-codes-title">
      <h2 id="batch-codes-title" className="mb-3 font-semibold">
        Codes
      </h2>
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="mb-1 block font-medium">State</span>
          <select name="status" defaultValue={status ?? ""} className={`${inputClasses} w-auto`}>
            <option value="">Any</option>
            <Options labels={CODE_STATUS_NAMES} />
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </Form>
      <RowNotice answer={answer} focusOn={fetcher.data} />
      <TableState loading={false} error={null} empty={codes.length === 0} />
      {codes.length > 0 && (
        <table className={tableClasses}>
          <caption className="sr-only">The batch's codes by their last four characters</caption>
          <TableHead columns={["Code", "State", "School", "Redeemed", "Withdrawn", "Action"]} />
          <tbody>
            {codes.map((code) => (
              <tr key={code.id} className={rowClasses}>
                <th scope="row" className="py-2 pr-4 font-mono font-medium">
                  …{code.last4}
                </th>
                <td className="py-2 pr-4">{CODE_STATUS_NAMES[code.status]}</td>
                <td className="py-2 pr-4">
                  {code.schoolId ? (
                    <Link
                      to={`/admin/school/${code.schoolId}`}
                      className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
                    >
                      {code.schoolName}
                    </Link>
                  ) : (
                    (code.schoolName ?? "")
                  )}
                </td>
                <td className="py-2 pr-4 whitespace-nowrap">{code.redeemedAt !== null && <LocalDateTime value={code.redeemedAt} />}</td>
                <td className="py-2 pr-4 whitespace-nowrap">{code.revokedAt !== null && <LocalDateTime value={code.revokedAt} />}</td>
                <td className="py-2 pr-4">
                  {code.status === "unused" && (
                    <AskFirstButton label={`Withdraw code …${code.last4}`} busy={busy} onClick={() => setConfirm(code)}>
                      Withdraw
                    </AskFirstButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages of codes" className="mt-4 flex items-center justify-between text-sm text-slate-600 dark:text-slate-400">
        <span>{total === 0 ? "No codes" : `${first}–${Math.min(total, page * pageSize)} of ${total.toLocaleString("en-US")}`}</span>
        <div className="flex gap-2">
          {page > 1 && (
            <Link to={href(page - 1)} className={linkClasses}>
              Previous
            </Link>
          )}
          {page < pages && (
            <Link to={href(page + 1)} className={linkClasses}>
              Next
            </Link>
          )}
        </div>
      </nav>
      <ConfirmDialog
        id="withdraw-code-dialog"
        row={confirm}
        onClose={() => setConfirm(null)}
        ask={(code) => ({
          title: `Withdraw code …${code.last4}?`,
          description: "It can no longer be redeemed: a school that tries it is told the publisher withdrew it. This cannot be undone.",
          fields: { intent: WITHDRAW_CODE_INTENT, codeId: code.id },
          action: "Withdraw",
        })}
        Form={fetcher.Form}
      />
    </section>
  );
}
