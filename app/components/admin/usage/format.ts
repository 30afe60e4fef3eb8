/** How the reports write days and figures (UTC days, en-US numbers). */
import type { ChartPoint } from "./bar-chart.tsx";

const day = (date: string) => new Date(`${date}T00:00:00Z`);
const short = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const long = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const month = new Intl.DateTimeFormat("en-US", { month: "short", year: "2-digit", timeZone: "UTC" });

export const shortDay = (date: string) => short.format(day(date));
export const longDay = (date: string) => long.format(day(date));
export const count = (value: number) => value.toLocaleString("en-US");
/** Minutes as hours with one decimal ("12.5"), or "0". */
export const hours = (minutes: number) => (minutes === 0 ? "0" : (minutes / 60).toLocaleString("en-US", { maximumFractionDigits: 1 }));

/** Chart points for a day series: ticks "Nov 3" (or "Nov 26" months for a year), full dates in the tooltip. */
export function dayPoints<T extends { date: string }>(days: T[], value: (day: T) => number): ChartPoint[] {
  const byMonth = days.length > 120;
  return days.map((d) => ({
    key: d.date,
    tick: byMonth ? month.format(day(d.date)) : shortDay(d.date),
    label: longDay(d.date),
    value: value(d),
  }));
}
