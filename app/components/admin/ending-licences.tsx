import { Link } from "react-router";
import { formatDay } from "#shared/rules/licence.ts";
import type { Licence } from "../../../workers/licences/list.ts";
import { cardClasses } from "./admin-page.tsx";

/** The overview's "Ending in the next 30 days": the licences to renew first, soonest end first. */
export function EndingLicences({
  licences,
  shown,
}: {
  licences: Pick<Licence, "id" | "schoolName" | "schoolId" | "title" | "endsOn">[];
  shown: number;
}) {
  return (
    <section className={`${cardClasses} mb-6`} aria-labelledby="ending-licences-title">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="ending-licences-title" className="font-semibold">
          Ending in the next 30 days
        </h2>
        <Link to="/admin/licences?ending=30" className="text-sm text-indigo-700 underline dark:text-indigo-300">
          Renew on the Licences page
        </Link>
      </div>
      {licences.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No licence ends in the next 30 days.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {licences.slice(0, shown).map((licence) => (
            <li key={licence.id} className="flex flex-wrap justify-between gap-2 py-2">
              <span>
                <Link to={`/admin/school/${licence.schoolId}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                  {licence.schoolName}
                </Link>
                {` · ${licence.title}`}
              </span>
              <span className="tabular-nums text-slate-600 dark:text-slate-300">{licence.endsOn ? formatDay(licence.endsOn) : ""}</span>
            </li>
          ))}
          {licences.length > shown && <li className="py-2 text-slate-600 dark:text-slate-300">{`and ${licences.length - shown} more`}</li>}
        </ul>
      )}
    </section>
  );
}
