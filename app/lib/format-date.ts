/** The spec's date-time display: short month, 2-digit hour and minute; 'N/A' when empty, 'Invalid date' on failure. */
export function formatDateTime(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "N/A";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "Invalid date";
  return date.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit" });
}
