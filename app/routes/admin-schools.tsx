import { useEffect, useRef, useState } from "react";
import { Form, Link, useSearchParams } from "react-router";
import { appContext } from "../../workers/http/context.ts";
import { pagePath } from "../../workers/http/tenancy.ts";
import { recordAfterResponse } from "../../workers/reading/usage-events.ts";
import { usageOverview } from "../../workers/reports/overview.ts";
import { rangeChoice } from "../../workers/reports/range.ts";
import { refreshRankings } from "../../workers/reports/rankings.ts";
import { ListQuerySchema, listSchools } from "../../workers/schools/list.ts";
import { AdminPageHeader, cardClasses, Pager, rowClasses, TableHead, TableState, tableClasses } from "../components/admin/admin-page.tsx";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { UsageOverview } from "../components/admin/usage/usage-overview.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { useDebounced } from "../lib/use-debounced.ts";
import type { Route } from "./+types/admin-schools";

export const meta: Route.MetaFunction = () => [{ title: "All Schools · Lectern Admin" }];

const PAGE_SIZE = 25;

/** One page of schools by name, filtered by `?query=` and paged by `?page=` (a bad value falls back to the default). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = ListQuerySchema.shape.query.catch("").parse(params.get("query")?.slice(0, 200) ?? undefined);
  const page = ListQuerySchema.shape.page.catch(1).parse(params.get("page") ?? undefined);
  const { db, ctx } = context.get(appContext);
  // The admin home (/admin) opens on the usage overview; the other school lists do not.
  // (A client-side visit asks /admin.data: pagePath names the page either way.)
  const home = pagePath(new URL(request.url).pathname).replace(/\/$/, "") === "/admin";
  const [{ schools, total }, overview] = await Promise.all([
    listSchools(db, { query, page, pageSize: PAGE_SIZE, sort: "name", dir: "asc" }),
    home ? usageOverview(db, rangeChoice(params.get("range"))) : null,
  ]);
  if (overview?.rankings.stale) recordAfterResponse(() => ctx, refreshRankings(db));
  return { schools, total, page, query, overview };
}

export default function AdminSchools({ loaderData }: Route.ComponentProps) {
  const { schools, total, page, query, overview } = loaderData;
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
    setSearchParams(settled ? { query: settled } : {}, { replace: true, preventScrollReset: true });
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
      {overview && <UsageOverview overview={overview} />}
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
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={showPage} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <SchoolPageError
      fallback="Failed to fetch schools"
      title="All Schools"
      description="Every school on Lectern, its teachers against its limit, and its logins."
    />
  );
}
