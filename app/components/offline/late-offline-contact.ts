import { useEffect } from "react";

/**
 * The offline contact check (startOfflineContact in use-offline-contact.ts), its module loaded once the page has hydrated:
 * the contact check runs in an effect anyway, and its code (the offline copies' store, the loan
 * API) then stays out of the JavaScript every school page and the reader load before they show
 * (the page budgets in `npm run bench`).
 */
export function useLateOfflineContact(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let left = false;
    import("./use-offline-contact.ts").then(
      ({ startOfflineContact }) => {
        if (!left) stop = startOfflineContact();
      },
      () => {},
    );
    return () => {
      left = true;
      stop?.();
    };
  }, []);
}
