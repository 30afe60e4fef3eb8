import { BarChart } from "./usage/bar-chart.tsx";
import { dayPoints } from "./usage/format.ts";

/** Teacher sign-ins per day, on the same chart as the usage reports. */
export function LoginsChart({ days }: { days: { date: string; logins: number }[] }) {
  const total = days.reduce((n, d) => n + d.logins, 0);
  const max = Math.max(0, ...days.map((d) => d.logins));
  const summary = `Logins per day over the last ${days.length} days: ${total} in total, at most ${max} in a day.`;
  return <BarChart points={dayPoints(days, (d) => d.logins)} valueName="Logins" summary={summary} tableCaption="Logins per day" />;
}
