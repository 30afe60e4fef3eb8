import { dayOf } from "#shared/rules/licence.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { listLicences } from "../../workers/licences/list.ts";
import { usageOverview } from "../../workers/reports/overview.ts";
import { rangeChoice } from "../../workers/reports/range.ts";
import { refreshRankings } from "../../workers/reports/rankings.ts";
import { EndingLicences } from "../components/admin/ending-licences.tsx";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { SchoolsList } from "../components/admin/schools-list.tsx";
import { UsageOverview } from "../components/admin/usage/usage-overview.tsx";
import { schoolListPage } from "../lib/school-list.server.ts";
import type { Route } from "./+types/admin-home";

export const meta: Route.MetaFunction = () => [{ title: "Usage and schools · Lectern Admin" }];

/** The admin home: the usage overview over `?range=` days, above the schools list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, ctx } = context.get(appContext);
  const days = rangeChoice(new URL(request.url).searchParams.get("range"));
  const [list, overview, ending] = await Promise.all([
    schoolListPage(request, db),
    usageOverview(db, days),
    listLicences(db, { endingWithinDays: 30 }, dayOf(Date.now()), ENDING_SHOWN + 50),
  ]);
  // Stale stored rankings are recomputed after this page is sent; this page shows the stored ones.
  if (overview.rankings.stale) ctx.waitUntil(refreshRankings(db).catch((error) => console.error("Rankings not refreshed", error)));
  const endingSoon = ending.map(({ id, schoolId, schoolName, title, endsOn }) => ({ id, schoolId, schoolName, title, endsOn }));
  return { list, overview, endingSoon };
}

/** Licences listed on the overview; the rest are a count and a link. */
const ENDING_SHOWN = 8;

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <UsageOverview overview={loaderData.overview} />
      <EndingLicences licences={loaderData.endingSoon} shown={ENDING_SHOWN} />
      <SchoolsList {...loaderData.list} />
    </div>
  );
}

export function ErrorBoundary() {
  return <SchoolPageError fallback="Failed to fetch the usage overview or the schools" title="Usage" />;
}
