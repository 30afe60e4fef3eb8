import { data } from "react-router";
import { NotFoundPanel } from "../components/public/not-found-page.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import type { Route } from "./+types/school-not-found";

export const meta: Route.MetaFunction = () => [{ title: "Page Not Found · Lectern" }];

/** A path under the school that is no page: a 404, shown in the school's layout (its middleware let the teacher in). */
export function loader({ context }: Route.LoaderArgs) {
  return data({ basePath: context.get(teacherContext).basePath }, { status: 404 });
}

/** The spec's 'Page Not Found', with the way back to the school's dashboard rather than the publisher's pages. */
export default function SchoolNotFound({ loaderData }: Route.ComponentProps) {
  return (
    <div className="py-10">
      <NotFoundPanel actions={<ButtonLink to={`${loaderData.basePath}/dashboard`}>Back to Dashboard</ButtonLink>} />
    </div>
  );
}
