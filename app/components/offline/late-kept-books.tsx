import { useHydrated } from "../../lib/use-hydrated.ts";
import { LatePart, loadablePart } from "../ui/late-part.tsx";

const keptBooksPart = loadablePart(() => import("./kept-books.tsx").then((module) => module.KeptBooks));

/**
 * The dashboard's "Kept for offline" row (kept-books.tsx), loaded once the page has hydrated. It
 * shows nothing on the server nor on a device that keeps no book, so nothing moves for most
 * teachers; its code (the offline copies' store) stays out of the dashboard's first load.
 */
export function LateKeptBooks({ basePath }: { basePath: string }) {
  if (!useHydrated()) return null;
  return (
    // Not loaded (no connection, or the app was updated): the row is left out, as on a device that keeps no book.
    <LatePart part={keptBooksPart} loading={null} failed={() => null}>
      {(KeptBooks) => <KeptBooks basePath={basePath} />}
    </LatePart>
  );
}
