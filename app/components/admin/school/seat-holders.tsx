import type { HeldSeat } from "../../../../workers/licences/seat-holders.ts";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses, rowClasses, TableHead, tableClasses } from "../admin-page.tsx";
import { AskFirstButton, ConfirmDialog, RowNotice, useRowActions } from "./ask-first.tsx";

/** One held seat, as the server lists it. */
export type HeldSeatRow = HeldSeat;

export const SEAT_FREE_INTENT = "seat-free";

/**
 * Who holds the seats of the school's seat-limited books now (issue 41), on the admin's school
 * page and the coordinator's My school: one row a holder, each with "Free seat", which asks first.
 * Freeing gives the seat to the next teacher who opens the book; its holder waits like anyone else
 * if they turn a page after that. The answer shows above the table and takes the focus (the row,
 * and the button that had it, are gone).
 */
export function SeatHolders({ seats }: { seats: HeldSeatRow[] }) {
  const { fetcher, answer, confirm, setConfirm, busy } = useRowActions<HeldSeatRow>(
    "seat-holders",
    (intent) => intent === SEAT_FREE_INTENT,
  );

  return (
    <section className={cardClasses} aria-labelledby="seat-holders-title">
      <h2 id="seat-holders-title" className="font-semibold">
        Who holds the seats
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-600 dark:text-slate-400">
        Books with a seat limit: a teacher holds a seat from a page they read until 10 minutes after their last one, or until they close the
        book or sign out. Free a seat someone left open so a colleague can read.
      </p>
      <RowNotice answer={answer} focusOn={fetcher.data} />
      {seats.length === 0 ? (
        <p className="text-sm text-slate-500">No one holds a seat of a book with a seat limit right now.</p>
      ) : (
        <table className={tableClasses}>
          <caption className="sr-only">Teachers holding a seat of a book with a seat limit, by book</caption>
          <TableHead columns={["Book", "Seats in use", "Teacher", "E-mail", "Last page read", "Action"]} />
          <tbody>
            {seats.map((s) => (
              <tr key={`${s.bookId}:${s.teacherId}`} className={`${rowClasses} align-top`}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {s.title}
                </th>
                <td className="py-2 pr-4 tabular-nums">
                  {s.held} of {s.seats}
                </td>
                <td className="py-2 pr-4">{s.name}</td>
                <td className="py-2 pr-4">{s.email}</td>
                <td className="py-2 pr-4">
                  <LocalDateTime value={s.lastAt} />
                </td>
                <td className="py-2 pr-4">
                  <AskFirstButton
                    label={`Free ${s.name}'s seat of ${s.title}`}
                    busy={busy}
                    onClick={() => setConfirm(s)}
                    className="whitespace-nowrap"
                  >
                    Free seat
                  </AskFirstButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        id="seat-free-dialog"
        row={confirm}
        onClose={() => setConfirm(null)}
        ask={(seat) => ({
          title: `Free ${seat.name}'s seat of ${seat.title}?`,
          description: `${seat.name} (${seat.email}) holds one of the ${seat.seats} seats of this book. The seat goes to the next teacher who opens it; if ${seat.name} turns a page after that, they wait for a free seat like anyone else.`,
          fields: { intent: SEAT_FREE_INTENT, bookId: seat.bookId, teacherId: seat.teacherId },
          action: "Free seat",
        })}
        Form={fetcher.Form}
      />
    </section>
  );
}
