import { appContext } from "../../workers/kernel/context.ts";
import { PublicHeader } from "../components/public/public-header.tsx";
import { SiteFooter } from "../components/public/site-footer.tsx";
import { SchoolErrorBoundary } from "../components/school/school-error-boundary.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { StatusPanel } from "../components/ui/status-panel.tsx";
import { requireSchool } from "../lib/guards/tenant.server.ts";
import type { Route } from "./+types/limit-reached";

export const meta: Route.MetaFunction = () => [{ title: "Teacher Registration Limit Reached · Lectern" }];

export function loader(args: Route.LoaderArgs) {
  const found = requireSchool(args);
  // The way to ask for more places: the school's own contact address (schools have no phone number on record).
  const email = args.context.get(appContext).tenant.school?.email.trim() || null;
  return { ...found, contact: { email } };
}

export default function LimitReached({ loaderData }: Route.ComponentProps) {
  const { school, basePath, contact } = loaderData;
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex flex-1 items-center px-4 py-16">
        <StatusPanel
          title="Teacher Registration Limit Reached"
          icon={
            <span className="flex h-14 w-14 items-center justify-center rounded-full bg-amber-100 text-amber-700 dark:bg-amber-900/50 dark:text-amber-300">
              <Icon className="h-7 w-7">
                <path
                  d="M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </Icon>
            </span>
          }
          actions={
            <>
              <ButtonLink to={basePath || "/"}>Back to Login</ButtonLink>
              <ButtonLink to="/" variant="secondary">
                Home
              </ButtonLink>
            </>
          }
        >
          <p>{school.schoolName} has used all of its teacher registration slots.</p>
          <p className="mt-2">
            Teachers who already have an account can still log in. New teachers cannot register until the school administrator raises the
            limit.
          </p>
          {contact.email && (
            <p className="mt-4">
              To ask for a place, contact {school.schoolName} at{" "}
              <a href={`mailto:${contact.email}`} className="font-medium text-indigo-700 underline dark:text-indigo-300">
                {contact.email}
              </a>
              .
            </p>
          )}
        </StatusPanel>
      </main>
      <SiteFooter />
    </div>
  );
}

export const ErrorBoundary = SchoolErrorBoundary;
