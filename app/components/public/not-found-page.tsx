import type { ReactNode } from "react";
import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { PublicHeader } from "./public-header.tsx";
import { SiteFooter } from "./site-footer.tsx";

/** The spec's 'Page Not Found' card; `actions` are the ways out (the site's, or a school's). */
export function NotFoundPanel({ actions }: { actions: ReactNode }) {
  return (
    <StatusPanel
      title="Page Not Found"
      icon={<span className="text-5xl font-black text-indigo-600 dark:text-indigo-400">404</span>}
      actions={actions}
    >
      <p>The page you are looking for does not exist or has been moved.</p>
    </StatusPanel>
  );
}

export function NotFoundPage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex flex-1 items-center px-4 py-16">
        <NotFoundPanel
          actions={
            <>
              <ButtonLink to="/admin">Go to Admin</ButtonLink>
              <ButtonLink to="/" variant="secondary">
                Go Home
              </ButtonLink>
            </>
          }
        />
      </main>
      <SiteFooter />
    </div>
  );
}
