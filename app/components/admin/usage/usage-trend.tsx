import { useState } from "react";
import type { UsageDay } from "../../../../workers/reports/usage.ts";
import { BarChart } from "./bar-chart.tsx";
import { count, dayPoints, longDay } from "./format.ts";

const oneDecimal = (value: number) => value.toLocaleString("en-US", { maximumFractionDigits: 1 });

const METRICS = [
  { id: "pagesRead", name: "Pages read", value: (d: UsageDay) => d.pagesRead, format: count },
  { id: "readingHours", name: "Reading hours", value: (d: UsageDay) => d.readingMinutes / 60, format: oneDecimal },
  { id: "activeTeachers", name: "Active teachers", value: (d: UsageDay) => d.activeTeachers, format: count },
  { id: "booksOpened", name: "Books opened", value: (d: UsageDay) => d.booksOpened, format: count },
] as const;

/** The day-by-day chart with a choice of figure (tabs), summarised for screen readers. */
export function UsageTrend({ days, scope }: { days: UsageDay[]; scope: string }) {
  const [metricId, setMetricId] = useState<(typeof METRICS)[number]["id"]>("pagesRead");
  const metric = METRICS.find((m) => m.id === metricId) ?? METRICS[0];
  const values = days.map(metric.value);
  const total = values.reduce((a, b) => a + b, 0);
  const peak = Math.max(0, ...values);
  const peakDay = days[values.indexOf(peak)];
  const summary =
    days.length === 0
      ? `${metric.name}: no days`
      : `${metric.name} per day for ${scope}, ${longDay(days[0]!.date)} to ${longDay(days.at(-1)!.date)}: ${metric.format(total)} in total${
          peak > 0 && peakDay && metric.id !== "activeTeachers" ? `, most on ${longDay(peakDay.date)} (${metric.format(peak)})` : ""
        }.`;
  return (
    <div>
      <div role="radiogroup" aria-label="Figure to chart" className="mb-3 flex flex-wrap gap-1.5">
        {METRICS.map((m) => (
          // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons reads and looks better than radio inputs here
          <button
            key={m.id}
            type="button"
            role="radio"
            aria-checked={m.id === metric.id}
            onClick={() => setMetricId(m.id)}
            className={`rounded-full px-3 py-1 text-sm font-medium ${
              m.id === metric.id
                ? "bg-indigo-600 text-white"
                : "bg-slate-100 text-slate-700 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-300 dark:hover:bg-slate-700"
            }`}
          >
            {m.name}
          </button>
        ))}
      </div>
      <BarChart
        points={dayPoints(days, metric.value)}
        valueName={metric.name}
        format={metric.format}
        summary={summary}
        tableCaption={`${metric.name} per day`}
      />
    </div>
  );
}
