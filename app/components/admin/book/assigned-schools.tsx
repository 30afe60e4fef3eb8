import { useState } from "react";
import { Form, Link } from "react-router";
import { errorText } from "../../../lib/error-text.ts";
import type { Route } from "../../../routes/+types/admin-book";
import { cardClasses } from "../admin-page.tsx";
import { type LicenceTerms, LicenceTermsFields, termsFields } from "../licence-terms.tsx";
import { SchoolPicker } from "../school-picker.tsx";
import { AssignToAllSchools } from "./assign-all.tsx";
import { useActionCall } from "./use-action-call.ts";

type BookPageData = Route.ComponentProps["loaderData"];

/**
 * The schools that have the book: unassign one, assign it to all (after a confirmation that says
 * how many schools that is), or pick more. Unassign and assign-all are plain forms; the picker
 * needs the page's script and posts through a fetcher.
 */
export function AssignedSchools({
  book,
  schools,
  schoolCount,
  defaultTerms,
  onAssigned,
}: {
  book: { id: number; title: string };
  schools: BookPageData["book"]["schools"];
  /** Every school there is. */
  schoolCount: number;
  /** A new licence's terms before the admin changes them (the loader's: the current school year). */
  defaultTerms: LicenceTerms;
  onAssigned: (count: number) => void;
}) {
  const assign = useActionCall<NonNullable<Route.ComponentProps["actionData"]>>();
  const [terms, setTerms] = useState<LicenceTerms>(defaultTerms);
  // The last assign's refusal, whose term (an end before the start) the terms' fields mark.
  const [refused, setRefused] = useState<unknown>(null);
  return (
    <section className={cardClasses} aria-labelledby="assigned-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="assigned-title" className="font-semibold">
          Assigned to {schools.length} school(s)
        </h2>
        <AssignToAllSchools book={book} schoolCount={schoolCount} alreadyAssigned={schools.length} />
      </div>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {schools.map((school) => (
          <li key={school.id} className="flex items-center justify-between py-2 text-sm">
            <Link to={`/admin/school/${school.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
              {school.schoolName}
            </Link>
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="unassign" />
              <input type="hidden" name="schoolId" value={school.id} />
              <button type="submit" className="text-red-700 hover:underline dark:text-red-300">
                Unassign
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <div className="mt-4 space-y-4 border-t border-slate-200 pt-4 dark:border-slate-800">
        <LicenceTermsFields value={terms} onChange={setTerms} refused={refused} />
        <SchoolPicker
          exclude={schools.map((s) => s.id)}
          actionLabel="Assign to selected"
          onPick={async (schoolIds) => {
            const answer = await assign.submit({ intent: "assign", schoolIds: schoolIds.join(","), ...termsFields(terms) });
            const error = errorText(answer);
            setRefused(error ? answer : null);
            if (error) throw new Error(error);
            onAssigned(schoolIds.length);
          }}
        />
      </div>
    </section>
  );
}
