import { appContext } from "../../workers/kernel/context.ts";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { SchoolsList } from "../components/admin/schools-list.tsx";
import { schoolListPage } from "../lib/school-list.server.ts";
import type { Route } from "./+types/admin-schools";

export const meta: Route.MetaFunction = () => [{ title: "All Schools · Lectern Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return schoolListPage(request, context.get(appContext).db);
}

export default function AdminSchools({ loaderData }: Route.ComponentProps) {
  return <SchoolsList {...loaderData} />;
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
