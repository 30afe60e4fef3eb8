import { appContext } from "../../workers/kernel/context.ts";
import { LandingPage } from "../components/public/landing-page.tsx";
import { SchoolErrorBoundary } from "../components/school/school-error-boundary.tsx";
import { SchoolPortal } from "../components/school/school-portal.tsx";
import { loginPageExtras, loginTarget, redirectIfSignedIn } from "../lib/guards/teacher.server.ts";
import { requireSchool } from "../lib/guards/tenant.server.ts";
import { teacherPortalScripts } from "../lib/school-portal-scripts.ts";
import type { Route } from "./+types/home";

// The landing page runs no script; a school's portal (on its subdomain) hydrates its login island.
export const handle = teacherPortalScripts;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData?.kind === "school"
    ? [{ title: `${loaderData.school.schoolName} · Lectern` }]
    : [
        { title: "Lectern: the digital library for your school" },
        { name: "description", content: "Publishers assign books to schools; teachers read them in the browser." },
      ];

// `/` is the landing page on the main host and the school's portal on its own subdomain.
export async function loader(args: Route.LoaderArgs) {
  const { tenant } = args.context.get(appContext);
  if (tenant.host.kind === "school" || tenant.host.kind === "invalid") {
    const school = requireSchool(args);
    redirectIfSignedIn(args);
    const extras = await loginPageExtras(args);
    return { kind: "school" as const, ...school, next: loginTarget(args.request, school.basePath), ...extras };
  }
  return { kind: "landing" as const };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "school")
    return (
      <SchoolPortal
        school={loaderData.school}
        basePath={loaderData.basePath}
        next={loaderData.next}
        notice={loaderData.notice}
        farewell={loaderData.farewell}
        providers={loaderData.providers}
      />
    );
  return <LandingPage />;
}

export const ErrorBoundary = SchoolErrorBoundary;
