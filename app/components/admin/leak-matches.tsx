import { type ReactNode, type Ref, useId } from "react";
import { Link } from "react-router";
import type { Client, Ok } from "../../lib/api-client.ts";
import { cardClasses } from "./admin-page.tsx";

/** POST /api/leaks/trace's answer, typed from its route. */
export type TraceAnswer = Ok<Awaited<ReturnType<Client["api"]["leaks"]["trace"]["$post"]>>>;
/** One teacher and day a leaked image was traced to. */
export type LeakMatch = TraceAnswer["matches"][number];

/** A mark's day ("YYYY-MM-DD", a UTC day) as "Tue, Nov 24, 2026"; the text itself when it is not a date. */
export function formatTraceDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}

/**
 * How sure, in words and as a percentage. The server never says 1 (it caps at 0.999999), so the
 * percentage is cut, not rounded: 0.9999996 must not read as a certain "100 %".
 */
export function describeConfidence(confidence: number): { word: string; percent: string } {
  const cut = Math.floor(confidence * 1e6 + 1e-6) / 1e4;
  const percent = `${cut.toLocaleString("en-US", { maximumFractionDigits: 4 })} %`;
  const word = confidence >= 0.999 ? "Certain" : confidence >= 0.99 ? "Very likely" : confidence >= 0.9 ? "Likely" : "Possible";
  return { word, percent };
}

const wordTone: Record<string, string> = {
  Certain: "bg-green-100 text-green-800 dark:bg-green-950/60 dark:text-green-200",
  "Very likely": "bg-green-100 text-green-800 dark:bg-green-950/60 dark:text-green-200",
  Likely: "bg-yellow-100 text-yellow-900 dark:bg-yellow-950/60 dark:text-yellow-200",
  Possible: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
};

const linkClasses = "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

/** The trace's answer: one card per (teacher, day), or why there is none. */
export function LeakMatches({ matches, headingRef }: { matches: LeakMatch[]; headingRef: Ref<HTMLHeadingElement> }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-6">
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {matches.length === 0 ? "Result" : matches.length === 1 ? "Traced to one teacher" : `Traced to ${matches.length} teachers`}
      </h2>
      {matches.length === 0 ? (
        <p className={`${cardClasses} mt-3 text-slate-700 dark:text-slate-300`}>
          No mark found. The image may not come from Lectern, or too little of a page is left in it.
        </p>
      ) : (
        <ul className="mt-3 space-y-3">
          {matches.map((match) => (
            <MatchCard key={`${match.teacherId}-${match.day}-${match.bookId}-${match.page}`} match={match} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MatchCard({ match }: { match: LeakMatch }) {
  const { word, percent } = describeConfidence(match.confidence);
  return (
    <li className={cardClasses}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="text-base font-semibold">{match.name}</h3>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${wordTone[word]}`}>
          {word}, {percent}
        </span>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <Detail term="E-mail">
          <a href={`mailto:${match.email}`} className={`${linkClasses} break-all`}>
            {match.email}
          </a>
        </Detail>
        <Detail term="School">{match.school}</Detail>
        <Detail term="Day received">
          <time dateTime={match.day}>{formatTraceDay(match.day)}</time>
        </Detail>
        <Detail term="Book">
          <Link to={`/admin/book/${match.bookId}`} className={linkClasses}>
            {match.title}
          </Link>
        </Detail>
        <Detail term="Page">{match.page}</Detail>
        <Detail term="How sure">
          {word} ({percent})
        </Detail>
      </dl>
    </li>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="min-w-0 text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}
