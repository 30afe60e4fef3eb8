import { Link } from "react-router";
import { addDays, formatDay, type LicenceState } from "#shared/rules/licence.ts";
import type { Licence } from "../../../workers/licences/list.ts";
import type { LicenceSeatUse } from "../../../workers/licences/seat-use.ts";
import { rowClasses, TableHead, tableClasses } from "./admin-page.tsx";
import { peakText, turnedAwayText } from "./usage/seat-use.tsx";

export const LICENCE_STATES: Record<LicenceState, string> = { active: "Active", scheduled: "Scheduled", expired: "Expired" };

/** The Licences page's table: each licence with its box to pick it, its period, seats, state and seats used over the last `seatDays`. */
export function LicencesTable({
  licences,
  picked,
  onToggle,
  today,
  seatDays,
}: {
  licences: Array<Licence & { use: LicenceSeatUse | null }>;
  picked: ReadonlySet<number>;
  onToggle: (id: number) => void;
  today: string;
  seatDays: number;
}) {
  return (
    // On a phone the table scrolls sideways in its card, not the page.
    <div className="-mx-2 overflow-x-auto px-2">
      <table className={`${tableClasses} min-w-[58rem]`}>
        <TableHead columns={["", "School", "Book", "Period", "Seats", "Offline", "State", `Last ${seatDays} days`, "Note"]} />
        <tbody>
          {licences.map((licence) => (
            <tr key={licence.id} className={rowClasses}>
              <td className="py-2 pr-2">
                <input
                  type="checkbox"
                  aria-label={`Pick ${licence.schoolName}: ${licence.title}`}
                  checked={picked.has(licence.id)}
                  onChange={() => onToggle(licence.id)}
                  className="size-4"
                />
              </td>
              <td className="py-2 pr-4">
                <Link to={`/admin/school/${licence.schoolId}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                  {licence.schoolName}
                </Link>
              </td>
              <td className="py-2 pr-4">
                <Link to={`/admin/book/${licence.bookId}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                  {licence.title}
                </Link>
              </td>
              <td className="py-2 pr-4 whitespace-nowrap">
                {`${formatDay(licence.startsOn)} – ${licence.endsOn ? formatDay(licence.endsOn) : "no end"}`}
              </td>
              <td className="py-2 pr-4 tabular-nums">{licence.seats ?? "Unlimited"}</td>
              {/* Whether teachers may keep the book offline, and for how many days (docs/decisions/0050). */}
              <td className="py-2 pr-4 whitespace-nowrap">{licence.offlineAllowed ? `${licence.offlineDays} days` : "Not allowed"}</td>
              <td className="py-2 pr-4">
                <StateBadge state={licence.state} endsOn={licence.endsOn} today={today} />
              </td>
              <td className="py-2 pr-4 text-xs">
                {licence.use && (
                  <>
                    <span className="block whitespace-nowrap">{`Peak ${peakText(licence.use)} at once`}</span>
                    <span
                      className={`block whitespace-nowrap ${licence.use.daysTurnedAway ? "font-semibold text-amber-800 dark:text-amber-300" : "text-slate-500 dark:text-slate-400"}`}
                    >
                      {`Turned away: ${turnedAwayText(licence.use)}`}
                    </span>
                  </>
                )}
              </td>
              <td className="py-2 pr-4 text-slate-600 dark:text-slate-300">{licence.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StateBadge({ state, endsOn, today }: { state: LicenceState; endsOn: string | null; today: string }) {
  const soon = state === "active" && endsOn !== null && endsOn <= addDays(today, 30);
  const classes =
    state === "expired"
      ? "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
      : state === "scheduled"
        ? "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200"
        : soon
          ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
          : "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200";
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${classes}`}>{soon ? "Ending soon" : LICENCE_STATES[state]}</span>
  );
}
