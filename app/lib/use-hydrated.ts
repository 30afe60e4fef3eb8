import { useEffect, useState } from "react";

/** False on the server and during hydration, true from the first effect on: what may differ from the server's HTML waits for it. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
