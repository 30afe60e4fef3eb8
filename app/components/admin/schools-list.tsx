import { useEffect, useRef, useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import type { SchoolListPage } from "../../lib/school-list.server.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { ButtonLink } from "../ui/button-link.tsx";
import { inputClasses } from "../ui/field.tsx";
import { AdminPageHeader, cardClasses, Pager, rowClasses, TableHead, TableState, tableClasses } from "./admin-page.tsx";

/** One page of the schools list with its search box and pager; the page's URL holds `?query=&page=`. */
export function SchoolsList({ schools, total, page, pageSize, query }: SchoolListPage) {
  const [, setSearchParams] = useSearchParams();
  const [input, setInput] = useState(query);
  const settled = useDebounced(input.trim(), 300);
  // The search the page last asked for: typing asks for a new one once it settles (a new search
  // starts at its first page); a search that changes otherwise (back, forward) refills the box.
  const asked = useRef(query);
  useEffect(() => {
    if (query === asked.current) return;
    asked.current = query;
    setInput(query);
  }, [query]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asks only when the typed search settles
  useEffect(() => {
    if (settled === asked.current) return;
    asked.current = settled;
    // Other parameters (the home's report range) stay; a new search starts at its first page.
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.delete("page");
        if (settled) params.set("query", settled);
        else params.delete("query");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [settled]);
  const showPage = (next: number) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.set("page", String(next));
        return params;
      },
      { preventScrollReset: true },
    );

  return (
    <div>
      <AdminPageHeader
        title="All Schools"
        description="Every school on Lectern, its teachers against its limit, and its logins."
        actions={
          <>
            <ButtonLink to="/admin/preview-add-schools" variant="secondary">
              Import CSV
            </ButtonLink>
            <ButtonLink to="/admin/add-school">Add School</ButtonLink>
          </>
        }
      />
      <div className={cardClasses}>
        {/* Without JavaScript, Enter searches; with it, the list follows the typing. */}
        <Form method="get" preventScrollReset>
          <label htmlFor="schools-search" className="sr-only">
            Search schools
          </label>
          <input
            id="schools-search"
            name="query"
            type="search"
            placeholder="Search by name, slug, city, e-mail or ZIP..."
            className={`${inputClasses} mb-4 max-w-md`}
            maxLength={200}
            value={input}
            onChange={(e) => setInput(e.target.value)}
          />
        </Form>
        <TableState loading={false} error={null} empty={schools.length === 0} />
        {schools.length > 0 && (
          <table className={tableClasses}>
            <TableHead columns={["School", "Location", "Teachers", "Books", "Logins"]} />
            <tbody>
              {schools.map((school) => (
                <tr key={school.id} className={rowClasses}>
                  <td className="py-2.5 pr-4">
                    <Link to={`/admin/school/${school.id}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                      {school.schoolName}
                    </Link>
                    <span className="block font-mono text-xs text-slate-500">/{school.slug}</span>
                  </td>
                  <td className="py-2.5 pr-4">{[school.city, school.state, school.zipCode].filter(Boolean).join(", ")}</td>
                  <td className="py-2.5 pr-4 tabular-nums">
                    <span className={school.teacherCount >= school.teacherLimit ? "font-semibold text-amber-700 dark:text-amber-300" : ""}>
                      {school.teacherCount} / {school.teacherLimit}
                    </span>
                  </td>
                  <td className="py-2.5 pr-4 tabular-nums">{school.bookCount}</td>
                  <td className="py-2.5 pr-4 tabular-nums">{school.totalLogins}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} pageSize={pageSize} total={total} onPage={showPage} />
      </div>
    </div>
  );
}
