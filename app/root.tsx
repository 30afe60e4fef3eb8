import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useNavigation, useRouteLoaderData } from "react-router";
import { appContext } from "../workers/kernel/context.ts";
import { manifestPath, THEME_COLOUR } from "../workers/schools/web-manifest.ts";
import type { Route } from "./+types/root";
import { answerUnavailable } from "./lib/unavailable.server.ts";
import "./app.css";
import { AppErrorBoundary } from "./components/public/app-error-boundary.tsx";
import type { RootData } from "./components/public/site-footer.tsx";
import { islandPropsId } from "./islands/island-props.ts";
import { useNonce } from "./lib/nonce.tsx";
import { registerAppShell } from "./lib/offline/app-shell.ts";
import { scriptJson, usePageScripts } from "./lib/page-scripts.ts";
import { THEME_INIT_SCRIPT, THEME_TOGGLE_SCRIPT } from "./lib/theme.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Lectern: the digital library for your school" },
  { name: "description", content: "Read the books assigned to your school in the browser, wherever you teach." },
];

export { shouldRevalidate } from "./lib/revalidation.ts";

// A part of the platform away (D1, R2, a school's object): the page answers 503 and says so (docs/decisions/0047).
export const middleware: Route.MiddlewareFunction[] = [answerUnavailable];

/** A school's pages link its web app manifest (docs/decisions/0049); no other page does. */
type AppManifest = { href: string; themeColour: string } | null;

export function loader({ context }: Route.LoaderArgs): RootData & { manifest: AppManifest } {
  const { config, tenant, teacher } = context.get(appContext);
  // A signed-in teacher's school: an error the school's own pages could not catch still leads back to it.
  const school = teacher && tenant.school ? { name: tenant.school.name, basePath: tenant.basePath } : null;
  const manifest = tenant.school ? { href: manifestPath(tenant.basePath), themeColour: THEME_COLOUR } : null;
  return { publisher: config.publisher, school, manifest };
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const manifest = useRouteLoaderData<typeof loader>("root")?.manifest;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, needed before first paint */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {manifest && (
          <>
            <link rel="manifest" href={manifest.href} />
            <link rel="apple-touch-icon" href="/icons/icon-192.png" />
            <meta name="theme-color" content={manifest.themeColour} />
          </>
        )}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <PageScriptTags nonce={nonce} />
      </body>
    </html>
  );
}

/** The whole app's runtime, or for pages that opt out, one island or no script at all. */
function PageScriptTags({ nonce }: { nonce: string | undefined }) {
  const scripts = usePageScripts();
  if (scripts === "app")
    return (
      <>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </>
    );
  return (
    <>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script */}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_TOGGLE_SCRIPT }} />
      {scripts !== "none" && (
        <>
          {scripts.preload.map((href) => (
            <link key={href} rel="modulepreload" href={href} nonce={nonce} />
          ))}
          <script
            type="application/json"
            id={islandPropsId(scripts.island)}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped; a data block, never run
            dangerouslySetInnerHTML={{ __html: scriptJson(scripts.props) }}
          />
          <script type="module" src={scripts.src} nonce={nonce} />
        </>
      )}
    </>
  );
}

export default function App() {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  // The installable app's service worker, on a school's pages (the reader's and the sign-in page's islands register it too).
  useEffect(registerAppShell, []);
  return (
    <QueryClientProvider client={queryClient}>
      <NavigationProgress />
      <Outlet />
    </QueryClientProvider>
  );
}

/** A thin bar at the top while the next page loads, so a slow school never looks frozen. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-indigo-100 dark:bg-indigo-950"
    >
      <div className="h-full w-1/3 animate-[pulse_1s_ease-in-out_infinite] bg-indigo-600 dark:bg-indigo-400" />
    </div>
  );
}

export const ErrorBoundary = AppErrorBoundary;
