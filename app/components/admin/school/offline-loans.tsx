import type { StaffOfflineLoan } from "#shared/rules/offline-loan-schema.ts";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses, rowClasses, TableHead, tableClasses } from "../admin-page.tsx";
import { AskFirstButton, ConfirmDialog, RowNotice, useRowActions } from "./ask-first.tsx";

export const LOAN_RETURN_INTENT = "offline-loan-return";
/** The school page's "Offline books per teacher" setting. */
export const OFFLINE_BOOKS_INTENT = "offline-books";

/**
 * "Kept for offline" (issue 45 item 6, docs/decisions/0050), on the admin's school page and the
 * coordinator's My school: who keeps which book for offline reading until when, each with "Return
 * now", which asks first. Returning frees the seat the loan holds at once; the device erases its
 * copy at its next contact with the server.
 */
export function OfflineLoans({ loans }: { loans: StaffOfflineLoan[] }) {
  const { fetcher, answer, confirm, setConfirm, busy } = useRowActions<StaffOfflineLoan>(
    "offline-loans",
    (intent) => intent === LOAN_RETURN_INTENT,
  );

  return (
    <section className={cardClasses} aria-labelledby="offline-loans-title">
      <h2 id="offline-loans-title" className="font-semibold">
        Kept for offline
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-600 dark:text-slate-400">
        Books teachers keep on a device to read without a connection. Each holds one of the book's seats until it is returned or its day
        ends. "Return now" frees the seat at once and erases the copy the next time the device connects.
      </p>
      <RowNotice answer={answer} focusOn={fetcher.data} />
      {loans.length === 0 ? (
        <p className="text-sm text-slate-500">No one keeps a book for offline reading right now.</p>
      ) : (
        <table className={tableClasses}>
          <caption className="sr-only">Books kept for offline reading, latest first</caption>
          <TableHead columns={["Teacher", "E-mail", "Book", "Kept since", "Until", "Action"]} />
          <tbody>
            {loans.map((loan) => (
              <tr key={loan.id} className={`${rowClasses} align-top`}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {loan.teacherName}
                </th>
                <td className="py-2 pr-4">{loan.teacherEmail}</td>
                <td className="py-2 pr-4">{loan.bookTitle}</td>
                <td className="py-2 pr-4">
                  <LocalDateTime value={loan.createdAt} />
                </td>
                <td className="py-2 pr-4">
                  <LocalDateTime value={loan.until} />
                </td>
                <td className="py-2 pr-4">
                  <AskFirstButton
                    label={`Return ${loan.teacherName}'s offline copy of ${loan.bookTitle} now`}
                    busy={busy}
                    onClick={() => setConfirm(loan)}
                    className="whitespace-nowrap"
                  >
                    Return now
                  </AskFirstButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        id="offline-loan-return-dialog"
        row={confirm}
        onClose={() => setConfirm(null)}
        ask={(loan) => ({
          title: `Return ${loan.teacherName}'s copy of ${loan.bookTitle} now?`,
          description: `${loan.teacherName} (${loan.teacherEmail}) keeps this book for offline reading. Its seat is freed at once, and the copy on their device is erased the next time it connects; they can keep the book again while a seat is free.`,
          fields: { intent: LOAN_RETURN_INTENT, loanId: loan.id },
          action: "Return now",
        })}
        Form={fetcher.Form}
      />
    </section>
  );
}
