import { useEffect, useState } from "react";
import { CONTACT_EVENT, type ContactResult, checkOfflineContact, lastContactResult } from "../../lib/offline/offline-contact.ts";

/** While the server cannot be reached, the contact check is tried again this often (and at once when the browser says it is back). */
export const CONTACT_RETRY_MS = 30_000;

/**
 * Runs the contact check (offline-contact.ts) now and whenever the connection comes back: copies
 * whose loans ended are erased, pages read offline reported. The browser's `online` event does not
 * come on every network that returns (nor when one only seemed gone), so an unreachable server is
 * asked again every CONTACT_RETRY_MS while the page is open. Started by school pages and the reader
 * once they have hydrated (late-offline-contact.ts); returns the function that stops it.
 */
export function startOfflineContact(): () => void {
  let retry: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    clearTimeout(retry);
    checkOfflineContact().then(
      (result) => {
        if (result === "unreachable") retry = setTimeout(check, CONTACT_RETRY_MS);
      },
      () => {},
    );
  };
  check();
  window.addEventListener("online", check);
  return () => {
    clearTimeout(retry);
    window.removeEventListener("online", check);
  };
}

/**
 * Whether the server can be reached, as far as this page knows: the browser's word, corrected by
 * the last contact check (a server not reached is offline, whatever `navigator.onLine` says).
 * True on the server and before hydration.
 */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    const heard = (event: Event) => {
      const result = (event as CustomEvent<ContactResult>).detail;
      if (result !== "nothing") setOnline(result !== "unreachable");
    };
    setOnline(navigator.onLine && lastContactResult() !== "unreachable");
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    window.addEventListener(CONTACT_EVENT, heard);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
      window.removeEventListener(CONTACT_EVENT, heard);
    };
  }, []);
  return online;
}
