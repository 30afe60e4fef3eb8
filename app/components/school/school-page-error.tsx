import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useParams, useRevalidator, useRouteError, useRouteLoaderData } from "react-router";
import { schoolInitials } from "../../lib/teacher-name.ts";
import type { loader as rootLoader } from "../../root.tsx";
import type { loader as schoolAppLoader } from "../../routes/school-app.tsx";
import { Button } from "../ui/button.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { ThemeToggle } from "../ui/theme-toggle.tsx";

export const OFFLINE_TITLE = "You appear to be offline";
export const OFFLINE_TEXT = "We could not reach the library. Check your internet connection, then try again.";
export const FAILED_TITLE = "Something went wrong";
export const FAILED_TEXT = "This page could not be loaded. Please try again in a moment.";
export const UNAVAILABLE_TITLE = "Temporarily unavailable";

/**
 * The sentence of a page answered 503 because a part of the platform was away (app/lib/unavailable.server.ts:
 * `{ error }`, docs/decisions/0047), or null for any other error.
 */
export function unavailableText(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status !== 503) return null;
  const body: unknown = error.data;
  return body && typeof body === "object" && "error" in body && typeof body.error === "string" ? body.error : null;
}

/**
 * Whether an error means the network failed: the browser says it is offline, or a request (the
 * page's data, the route list) got no answer at all. Browsers word that failure differently:
 * "Failed to fetch" (Chromium), "NetworkError when attempting to fetch resource" (Firefox),
 * "Load failed" (Safari), and their wording of a script that did not load.
 */
export function isOfflineError(error: unknown): boolean {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return true;
  const message = error instanceof Error ? error.message : "";
  return (
    error instanceof TypeError &&
    /failed to fetch|networkerror|load failed|network connection|dynamically imported module|importing a module script/i.test(message)
  );
}

/** The signed-in school the page is in: the layout's data, else the root's, else the URL's slug. */
export function useSchoolBasePath(): string {
  const layout = useRouteLoaderData<typeof schoolAppLoader>("routes/school-app");
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { slug } = useParams();
  return layout?.basePath ?? root?.school?.basePath ?? (slug ? `/schools/${slug}` : "");
}

/**
 * What went wrong on a page of the signed-in school, in words (offline, or it failed), with
 * 'Try Again' (asks for the page's data again) and the way back to the school's dashboard.
 * `title` replaces the heading (the book lists say 'Unable to load books'); the text still says
 * when the teacher is offline.
 */
export function SchoolPageError({ error, basePath, title }: { error: unknown; basePath: string; title?: string }) {
  const revalidator = useRevalidator();
  const offline = isOfflineError(error);
  const unavailable = unavailableText(error);
  const status = isRouteErrorResponse(error) ? ` (${error.status}${error.statusText ? ` ${error.statusText}` : ""})` : "";
  const text = offline ? (title ? `${OFFLINE_TITLE}. ${OFFLINE_TEXT}` : OFFLINE_TEXT) : (unavailable ?? `${FAILED_TEXT}${status}`);
  const busy = revalidator.state !== "idle";
  return (
    <StatusPanel
      title={title ?? (offline ? OFFLINE_TITLE : unavailable ? UNAVAILABLE_TITLE : FAILED_TITLE)}
      tone="error"
      actions={
        <>
          <Button onClick={() => revalidator.revalidate()} disabled={busy} className="px-5">
            {busy ? "Trying again..." : "Try Again"}
          </Button>
          <ButtonLink to={`${basePath}/dashboard`} variant="secondary">
            Back to Dashboard
          </ButtonLink>
        </>
      }
    >
      {/* Announced: it replaces the page the teacher was waiting for. */}
      <p role="alert">{text}</p>
    </StatusPanel>
  );
}

/** The error boundary of a page inside the school layout: it renders in the page's place, in the layout. */
export function SchoolPageErrorBoundary() {
  const error = useRouteError();
  return <SchoolPageError error={error} basePath={useSchoolBasePath()} />;
}

/**
 * A plain frame for a school's error where no school layout can be drawn (the root's boundary,
 * or the layout's own data failed): the school's name leads back to its dashboard, not to the
 * publisher's landing page.
 */
export function SchoolErrorFrame({ basePath, children }: { basePath: string; children: ReactNode }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const name = root?.school?.name;
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link to={`${basePath}/dashboard`} className="flex min-w-0 items-center gap-3 font-semibold">
            {name && (
              <span
                aria-hidden="true"
                className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-indigo-500 to-violet-600 text-sm font-bold text-white"
              >
                {schoolInitials(name)}
              </span>
            )}
            <span className="truncate">{name ?? "Back to your school"}</span>
          </Link>
          <ThemeToggle />
        </div>
      </header>
      <main className="flex flex-1 items-center px-4 py-16">{children}</main>
    </div>
  );
}
