import { OfflineNotice } from "../components/school/offline-notice.tsx";
import { SchoolErrorFrame } from "../components/school/school-page-error.tsx";
import { requireRole } from "../lib/guards/role.server.ts";
import type { PageScriptsHandle } from "../lib/page-scripts.ts";
import type { Route } from "./+types/school-offline";

/**
 * The school's offline page (docs/decisions/0049): kept by the service worker while the teacher
 * is signed in, and shown in place of any school page that was never kept when there is no
 * connection. It runs no script: it must open from the cache alone.
 */
export const handle: PageScriptsHandle = { scripts: () => "none" };

export const meta: Route.MetaFunction = () => [{ title: "You are offline · Lectern" }];

export function loader(args: Route.LoaderArgs) {
  const { basePath } = requireRole("teacher", args);
  return { basePath };
}

export default function SchoolOffline({ loaderData }: Route.ComponentProps) {
  return (
    <SchoolErrorFrame basePath={loaderData.basePath}>
      <OfflineNotice basePath={loaderData.basePath} />
    </SchoolErrorFrame>
  );
}
