import { joinAddress, type PublicSchool } from "#shared/rules/public-school.ts";
import type { ProviderName } from "../../../workers/sso/providers.ts";
import { PublicHeader } from "../public/public-header.tsx";
import { SiteFooter } from "../public/site-footer.tsx";
import { Icon } from "../ui/icon.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { TEACHER_PORTAL_ID, TeacherPortal } from "./teacher-portal.tsx";

/**
 * The school's front door: who the school is, and the teacher login. Only the login part is
 * interactive; in a production build it hydrates as an island and the rest stays plain HTML.
 */
export function SchoolPortal({
  school,
  basePath,
  next,
  notice = null,
  farewell = null,
  providers = [],
}: {
  school: PublicSchool;
  basePath: string;
  next: string;
  notice?: string | null;
  /** Said once a teacher deleted their own account (docs/decisions/0045), above the login. */
  farewell?: string | null;
  /** The providers the school signs in with: their buttons sit above the e-mail form. */
  providers?: ProviderName[];
}) {
  const address = joinAddress(school);
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex-1">
        <div className="bg-gradient-to-b from-indigo-50 to-transparent dark:from-indigo-950/40">
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 md:py-20">
            <div>
              <p className="text-sm font-semibold uppercase tracking-wider text-indigo-600 dark:text-indigo-400">School library portal</p>
              <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">{school.schoolName}</h1>
              {address && (
                <p className="mt-3 flex items-start gap-2 text-slate-600 dark:text-slate-400">
                  <Icon className="mt-0.5 h-5 w-5 shrink-0">
                    <path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11z" strokeLinejoin="round" />
                    <circle cx="12" cy="10" r="2.5" />
                  </Icon>
                  <span>{address}</span>
                </p>
              )}
              <ul className="mt-8 hidden space-y-3 text-sm text-slate-700 md:block dark:text-slate-300">
                {[
                  "Every book your school has been given, in one place",
                  "Read in the browser on any school laptop or tablet",
                  "Pick up where you left off",
                ].map((line) => (
                  <li key={line} className="flex items-center gap-2">
                    <svg
                      viewBox="0 0 20 20"
                      className="h-5 w-5 text-indigo-600 dark:text-indigo-400"
                      fill="currentColor"
                      aria-hidden="true"
                    >
                      <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" />
                    </svg>
                    {line}
                  </li>
                ))}
              </ul>
            </div>
            <div className="mx-auto w-full max-w-md space-y-4">
              {farewell && <MessageBox text={farewell} tone="success" />}
              <div id={TEACHER_PORTAL_ID}>
                <TeacherPortal
                  slug={school.slug}
                  schoolName={school.schoolName}
                  basePath={basePath}
                  next={next}
                  notice={notice}
                  providers={providers}
                />
              </div>
            </div>
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
