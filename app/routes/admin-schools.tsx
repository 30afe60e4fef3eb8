import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import {
  AdminPageHeader,
  cardClasses,
  Pager,
  rowClasses,
  TableState,
  tableClasses,
  theadClasses,
} from "../components/admin/admin-page.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { requestJson } from "../lib/api-client.ts";
import { useDebounced } from "../lib/use-debounced.ts";
import type { Route } from "./+types/admin-schools";

export const meta: Route.MetaFunction = () => [{ title: "All Schools · Lectern Admin" }];

type SchoolRow = {
  id: number;
  slug: string;
  schoolName: string;
  city: string;
  state: string;
  zipCode: string;
  teacherLimit: number;
  teacherCount: number;
  totalLogins: number;
  bookCount: number;
};

const PAGE_SIZE = 25;

export default function AdminSchools() {
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), 300);
  const [page, setPage] = useState(1);
  // A new search starts at its first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query changes
  useEffect(() => setPage(1), [query]);
  const schools = useQuery({
    queryKey: ["admin-schools", query, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      requestJson<{ schools: SchoolRow[]; total: number }>(
        `/api/schools?query=${encodeURIComponent(query)}&page=${page}&pageSize=${PAGE_SIZE}&sort=name`,
        {
          fallback: "Failed to fetch schools",
        },
      ),
  });
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
        <label htmlFor="schools-search" className="sr-only">
          Search schools
        </label>
        <input
          id="schools-search"
          type="search"
          placeholder="Search by name, slug, city, e-mail or ZIP..."
          className={`${inputClasses} mb-4 max-w-md`}
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        <TableState loading={schools.isPending} error={schools.error} empty={schools.data?.schools.length === 0} />
        {schools.data && schools.data.schools.length > 0 && (
          <table className={tableClasses}>
            <thead className={theadClasses}>
              <tr>
                <th className="py-2 pr-4">School</th>
                <th className="py-2 pr-4">Location</th>
                <th className="py-2 pr-4">Teachers</th>
                <th className="py-2 pr-4">Books</th>
                <th className="py-2 pr-4">Logins</th>
              </tr>
            </thead>
            <tbody>
              {schools.data.schools.map((school) => (
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
        {schools.data && <Pager page={page} pageSize={PAGE_SIZE} total={schools.data.total} onPage={setPage} />}
      </div>
    </div>
  );
}
