/**
 * A bar chart drawn with visx (docs/decisions/0019): scales, axes and grid from the library,
 * rendered on the server as plain SVG (a viewBox, so it scales to its card), with a tooltip on
 * hover, touch and arrow keys once hydrated, a summary for screen readers and a table to read
 * every value. Colours are Tailwind classes, so dark mode follows the page.
 */
import { AxisBottom, AxisLeft } from "@visx/axis";
import { GridRows } from "@visx/grid";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from "react";

export interface ChartPoint {
  /** Unique key, e.g. the date. */
  key: string;
  /** The axis label. */
  tick: string;
  /** The tooltip's and table's full label, e.g. "Mon 3 Nov 2026". */
  label: string;
  value: number;
}

/** The server draws at this width; once hydrated the chart redraws at its card's width, so text stays 11 px on a phone. */
const SERVER_WIDTH = 720;
const HEIGHT = 220;
const MARGIN = { top: 10, right: 8, bottom: 26, left: 44 };
/** Room for one date label on the axis. */
const TICK_SPACING = 80;

export function BarChart({
  points,
  valueName,
  format = (value) => value.toLocaleString("en-US"),
  summary,
  tableCaption,
  keyName = "Day",
}: {
  points: ChartPoint[];
  /** What a value is, as a column heading: "Pages read". */
  valueName: string;
  format?: (value: number) => string;
  /** One sentence for screen readers: what the chart shows and its headline figures. */
  summary: string;
  tableCaption: string;
  /** The table's first column heading. */
  keyName?: string;
}) {
  const [active, setActive] = useState<number | null>(null);
  const [pointerX, setPointerX] = useState<number | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(SERVER_WIDTH);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => element.clientWidth > 0 && setWidth(Math.round(element.clientWidth)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const tooltipId = useId();
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<string>({ domain: points.map((p) => p.key), range: [0, innerWidth], padding: points.length > 60 ? 0.1 : 0.25 });
  const max = Math.max(0, ...points.map((p) => p.value));
  const y = scaleLinear<number>({ domain: [0, max === 0 ? 1 : max], range: [innerHeight, 0], nice: true });
  // Counts get whole-number ticks only (no "0.2 logins").
  const integral = points.every((p) => Number.isInteger(p.value));
  const yTicks = y.ticks(4).filter((tick) => !integral || Number.isInteger(tick));
  const every = Math.max(1, Math.ceil(points.length / Math.max(2, Math.floor(innerWidth / TICK_SPACING))));
  const tickValues = points.filter((_, i) => i % every === 0).map((p) => p.key);
  const ticks = new Map(points.map((p) => [p.key, p.tick]));
  const shown = active === null ? null : points[active];

  const pick = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const inChart = ((event.clientX - box.left) / box.width) * width - MARGIN.left;
    const index = Math.floor((inChart / innerWidth) * points.length);
    if (index < 0 || index >= points.length) return setActive(null);
    setActive(index);
    setPointerX(event.clientX - (frame.current?.getBoundingClientRect().left ?? box.left));
  };
  const step = (event: KeyboardEvent<SVGSVGElement>) => {
    const last = points.length - 1;
    const current = active ?? last;
    const next =
      event.key === "ArrowRight"
        ? Math.min(last, current + 1)
        : event.key === "ArrowLeft"
          ? Math.max(0, current - 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null || points.length === 0) return;
    event.preventDefault();
    setActive(next);
    const box = event.currentTarget.getBoundingClientRect();
    const center = MARGIN.left + (x(points[next]!.key) ?? 0) + x.bandwidth() / 2;
    setPointerX((center / width) * box.width);
  };

  return (
    <figure>
      <div ref={frame} className="relative">
        <svg
          viewBox={`0 0 ${width} ${HEIGHT}`}
          className="h-auto w-full touch-pan-y select-none rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
          role="img"
          aria-label={summary}
          aria-describedby={shown ? tooltipId : undefined}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the arrow keys walk the bars, each read out in the tooltip
          tabIndex={0}
          onPointerMove={pick}
          onPointerDown={pick}
          onPointerLeave={(event) => event.pointerType === "mouse" && setActive(null)}
          onKeyDown={step}
          onBlur={() => setActive(null)}
        >
          <Group left={MARGIN.left} top={MARGIN.top}>
            <GridRows
              scale={y}
              width={innerWidth}
              tickValues={yTicks}
              className="text-slate-200 dark:text-slate-800"
              stroke="currentColor"
            />
            {points.map((point, i) => {
              const barHeight = innerHeight - y(point.value);
              return (
                <Bar
                  key={point.key}
                  x={x(point.key) ?? 0}
                  y={innerHeight - barHeight}
                  width={Math.max(1, x.bandwidth())}
                  height={barHeight}
                  rx={Math.min(2, x.bandwidth() / 3)}
                  className={i === active ? "fill-indigo-700 dark:fill-indigo-300" : "fill-indigo-500 dark:fill-indigo-400"}
                />
              );
            })}
            <g className="text-slate-400 dark:text-slate-600">
              <AxisLeft
                scale={y}
                tickValues={yTicks}
                tickFormat={(value) => format(Number(value))}
                stroke="currentColor"
                tickStroke="currentColor"
                hideAxisLine
                tickLabelProps={{ className: "fill-slate-500 dark:fill-slate-400", fontSize: 11, fill: "currentColor" }}
              />
              <AxisBottom
                top={innerHeight}
                scale={x}
                tickValues={tickValues}
                tickFormat={(key) => ticks.get(key) ?? key}
                stroke="currentColor"
                tickStroke="currentColor"
                tickLabelProps={{ className: "fill-slate-500 dark:fill-slate-400", fontSize: 11, fill: "currentColor" }}
              />
            </g>
          </Group>
        </svg>
        {shown && pointerX !== null && (
          <div
            id={tooltipId}
            role="status"
            className="pointer-events-none absolute top-0 z-10 -translate-x-1/2 whitespace-nowrap rounded-md bg-slate-900 px-2.5 py-1.5 text-xs text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
            style={{ left: Math.min(Math.max(pointerX, 70), (frame.current?.clientWidth ?? width) - 70) }}
          >
            <span className="font-medium">{shown.label}</span>
            <br />
            {valueName}: {format(shown.value)}
          </div>
        )}
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100">
          Show as a table
        </summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{tableCaption}</caption>
            <thead>
              <tr className="text-xs uppercase tracking-wide text-slate-500">
                <th scope="col" className="py-1 pr-4 font-medium">
                  {keyName}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {valueName}
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.key} className="border-t border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {point.label}
                  </th>
                  <td className="py-1 tabular-nums">{format(point.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
