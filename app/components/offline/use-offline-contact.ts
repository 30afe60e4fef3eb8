import { useEffect, useState } from "react";
import { checkOfflineContact } from "../../lib/offline/offline-contact.ts";

/**
 * Runs the contact check (offline-contact.ts) when a school page loads while online and whenever
 * the connection comes back: copies whose loans ended are erased, pages read offline reported.
 */
export function useOfflineContact(): void {
  useEffect(() => {
    const check = () => {
      checkOfflineContact().catch(() => {});
    };
    if (navigator.onLine) check();
    window.addEventListener("online", check);
    return () => window.removeEventListener("online", check);
  }, []);
}

/** Whether the browser says it is online (true on the server and before hydration). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}
