import { Outlet, useLocation, useNavigation } from "react-router";
import { BookGridSkeleton } from "../components/school/book-card.tsx";
import { BookSearch } from "../components/school/book-search.tsx";
import { SchoolErrorBoundary } from "../components/school/school-error-boundary.tsx";
import { SchoolShell } from "../components/school/school-shell.tsx";
import { requireTeacher, teacherContext } from "../lib/guards/teacher.server.ts";
import type { Route } from "./+types/school-app";

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    args.context.set(teacherContext, requireTeacher(args));
    return next();
  },
];

export function loader({ context }: Route.LoaderArgs) {
  const { teacher, school, basePath } = context.get(teacherContext);
  return { teacherName: teacher.name, school, basePath };
}

export default function SchoolApp({ loaderData }: Route.ComponentProps) {
  const { school, teacherName, basePath } = loaderData;
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

export const ErrorBoundary = SchoolErrorBoundary;
