import { SchoolErrorBoundary } from "../components/school/school-error-boundary.tsx";
import { SchoolPortal } from "../components/school/school-portal.tsx";
import { loginPageExtras, loginTarget, redirectIfSignedIn } from "../lib/guards/teacher.server.ts";
import { requireSchool } from "../lib/guards/tenant.server.ts";
import { teacherPortalScripts } from "../lib/school-portal-scripts.ts";
import type { Route } from "./+types/school-portal";

export const handle = teacherPortalScripts;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.school.schoolName} · Lectern` : "School Not Found · Lectern" },
];

export async function loader(args: Route.LoaderArgs) {
  const school = requireSchool(args);
  redirectIfSignedIn(args);
  const extras = await loginPageExtras(args);
  return { ...school, next: loginTarget(args.request, school.basePath), ...extras };
}

export default function SchoolPortalRoute({ loaderData }: Route.ComponentProps) {
  return <SchoolPortal {...loaderData} />;
}

export const ErrorBoundary = SchoolErrorBoundary;
