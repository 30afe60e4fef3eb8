import { SchoolErrorBoundary } from "../components/school-error-boundary.tsx";
import { SchoolPortal } from "../components/school-portal.tsx";
import { redirectIfSignedIn } from "../lib/teacher.server.ts";
import { requireSchool } from "../lib/tenant.server.ts";
import type { Route } from "./+types/school-portal";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.school.schoolName} · Lectern` : "School Not Found · Lectern" },
];

export async function loader(args: Route.LoaderArgs) {
  const school = requireSchool(args);
  await redirectIfSignedIn(args);
  return school;
}

export default function SchoolPortalRoute({ loaderData }: Route.ComponentProps) {
  return <SchoolPortal school={loaderData.school} basePath={loaderData.basePath} />;
}

export const ErrorBoundary = SchoolErrorBoundary;
