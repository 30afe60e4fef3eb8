/** Logins per day as an SVG bar chart, with a text summary for screen readers. */
export function LoginsChart({ days }: { days: { date: string; logins: number }[] }) {
  const max = Math.max(1, ...days.map((d) => d.logins));
  const total = days.reduce((n, d) => n + d.logins, 0);
  const width = 720;
  const height = 180;
  const bar = width / Math.max(1, days.length);
  const ticks = [0, Math.ceil(max / 2), max];
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width + 40} ${height + 28}`}
        className="h-auto w-full"
        role="img"
        aria-label={`Logins per day over the last ${days.length} days: ${total} in total, at most ${max} in a day.`}
      >
        {ticks.map((tick) => {
          const y = height - (tick / max) * height + 4;
          return (
            <g key={tick}>
              <line x1={36} x2={width + 40} y1={y} y2={y} className="stroke-slate-200 dark:stroke-slate-800" strokeWidth={1} />
              <text x={30} y={y + 4} textAnchor="end" className="fill-slate-500 text-[11px]">
                {tick}
              </text>
            </g>
          );
        })}
        {days.map((day, i) => {
          const h = (day.logins / max) * height;
          return (
            <rect
              key={day.date}
              x={40 + i * bar + 1}
              y={height - h + 4}
              width={Math.max(1, bar - 2)}
              height={h}
              rx={1.5}
              className="fill-indigo-500"
            >
              <title>{`${day.date}: ${day.logins} login${day.logins === 1 ? "" : "s"}`}</title>
            </rect>
          );
        })}
        {days.length > 0 && (
          <>
            <text x={40} y={height + 24} className="fill-slate-500 text-[11px]">
              {days[0]!.date}
            </text>
            <text x={width + 40} y={height + 24} textAnchor="end" className="fill-slate-500 text-[11px]">
              {days[days.length - 1]!.date}
            </text>
          </>
        )}
      </svg>
      <figcaption className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {total} login{total === 1 ? "" : "s"} in the last {days.length} days
      </figcaption>
    </figure>
  );
}
