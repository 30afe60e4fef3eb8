import { useSyncExternalStore } from "react";
import { formatDateTime } from "../../lib/format-date.ts";

const subscribe = () => () => {};

/** formatDateTime's display in UTC: what the server renders, and the browser until it has hydrated. */
function formatUtc(value: number | null): string {
  if (value === null) return formatDateTime(value);
  return new Date(value).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });
}

/**
 * A date and time in the reader's own time zone. The server cannot know it, so the page is painted
 * with UTC and corrected once hydrated (the same text both sides of hydration, then the local one).
 */
export function LocalDateTime({ value }: { value: number | null }) {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const text = hydrated ? formatDateTime(value) : formatUtc(value);
  return value === null ? text : <time dateTime={new Date(value).toISOString()}>{text}</time>;
}
