import { isRouteErrorResponse, Outlet, useLocation, useNavigation, useRouteError, useRouteLoaderData } from "react-router";
import { appContext } from "../../workers/kernel/context.ts";
import { findCoordinator } from "../../workers/teachers/coordinator-lookup.ts";
import { BookGridSkeleton } from "../components/school/book-card.tsx";
import { BookSearch } from "../components/school/book-search.tsx";
import { SchoolErrorBoundary } from "../components/school/school-error-boundary.tsx";
import { SchoolErrorFrame, SchoolPageError, useSchoolBasePath } from "../components/school/school-page-error.tsx";
import { SchoolShell } from "../components/school/school-shell.tsx";
import { requireRole } from "../lib/guards/role.server.ts";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import { notFound } from "../lib/guards/tenant.server.ts";
import type { Route } from "./+types/school-app";

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    // An unknown page under a school (routes/school-not-found.tsx) is shown in the layout to the
    // school's teachers only; anyone else gets the site-wide 404, not a login page.
    if (args.params["*"] !== undefined && !args.context.get(appContext).teacher) notFound("page");
    args.context.set(teacherContext, requireRole("teacher", args));
    return next();
  },
];

export { shouldRevalidate } from "../lib/revalidation.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const { teacher, school, basePath } = context.get(teacherContext);
  // One D1 read, when the layout loads (not on every page: shouldRevalidate): whether to lead to "My school".
  const coordinator = await findCoordinator(context.get(appContext).db, { schoolId: school.id, teacherId: teacher.id });
  return { teacherName: teacher.name, school, basePath, coordinator: coordinator !== null };
}

export default function SchoolApp({ loaderData }: Route.ComponentProps) {
  const { school, teacherName, basePath, coordinator } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const dashboard = `${basePath}/dashboard`;
  // Coming back to the grid from another page: eight skeleton cards until the shelf arrives.
  const loadingDashboard = navigation.state === "loading" && navigation.location.pathname === dashboard && location.pathname !== dashboard;
  return (
    <SchoolShell
      school={school}
      teacherName={teacherName}
      basePath={basePath}
      coordinator={coordinator}
      search={<BookSearch slug={school.slug} basePath={basePath} />}
    >
      {loadingDashboard ? (
        <div className="space-y-6">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Books Library</h1>
          <BookGridSkeleton />
        </div>
      ) : (
        <Outlet />
      )}
    </SchoolShell>
  );
}

/**
 * The school's 404s as before; anything else (a page's data that never arrived, the layout's own)
 * stays in the school: inside its layout when the layout's data is there, and leads back to the
 * school's dashboard, never to the publisher's landing page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const layout = useRouteLoaderData<typeof loader>("routes/school-app");
  const basePath = useSchoolBasePath();
  if (isRouteErrorResponse(error) && error.status === 404) return <SchoolErrorBoundary />;
  const panel = <SchoolPageError error={error} basePath={basePath} />;
  if (!layout) return <SchoolErrorFrame basePath={basePath}>{panel}</SchoolErrorFrame>;
  return (
    <SchoolShell
      school={layout.school}
      teacherName={layout.teacherName}
      basePath={layout.basePath}
      coordinator={layout.coordinator}
      search={<BookSearch slug={layout.school.slug} basePath={layout.basePath} />}
    >
      {panel}
    </SchoolShell>
  );
}
