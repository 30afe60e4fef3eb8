import { redirect } from "react-router";
import { SchoolErrorBoundary } from "../components/school-error-boundary.tsx";
import { requireSchool } from "../lib/tenant.server.ts";
import type { Route } from "./+types/school-dashboard";

// Teacher sessions arrive with the teacher accounts work; until a teacher is signed in,
// the dashboard sends visitors to their school's login page.
export function loader(args: Route.LoaderArgs) {
  const { basePath } = requireSchool(args);
  throw redirect(basePath || "/");
}

export default function SchoolDashboard() {
  return null;
}

export const ErrorBoundary = SchoolErrorBoundary;
