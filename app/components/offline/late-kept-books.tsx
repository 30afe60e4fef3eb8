import { lazy, Suspense } from "react";
import { useHydrated } from "../../lib/use-hydrated.ts";

const KeptBooks = lazy(() => import("./kept-books.tsx").then((module) => ({ default: module.KeptBooks })));

/**
 * The dashboard's "Kept for offline" row (kept-books.tsx), loaded once the page has hydrated. It
 * shows nothing on the server nor on a device that keeps no book, so nothing moves for most
 * teachers; its code (the offline copies' store) stays out of the dashboard's first load.
 */
export function LateKeptBooks({ basePath }: { basePath: string }) {
  if (!useHydrated()) return null;
  return (
    <Suspense fallback={null}>
      <KeptBooks basePath={basePath} />
    </Suspense>
  );
}
