import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { PublicHeader } from "./public-header.tsx";
import { SiteFooter } from "./site-footer.tsx";

export function NotFoundPage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main className="flex flex-1 items-center px-4 py-16">
        <StatusPanel
          title="Page Not Found"
          icon={<span className="text-5xl font-black text-indigo-600 dark:text-indigo-400">404</span>}
          actions={
            <>
              <ButtonLink to="/admin">Go to Admin</ButtonLink>
              <ButtonLink to="/" variant="secondary">
                Go Home
              </ButtonLink>
            </>
          }
        >
          <p>The page you are looking for does not exist or has been moved.</p>
        </StatusPanel>
      </main>
      <SiteFooter />
    </div>
  );
}
