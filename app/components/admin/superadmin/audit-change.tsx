type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => value !== null && typeof value === "object" && !Array.isArray(value);
const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const wrap = "whitespace-pre-wrap [overflow-wrap:anywhere]";

/** What one field of an entry was, is, or became. */
function FieldChange({ name, before, after }: { name: string; before: Fields | null; after: Fields | null }) {
  const had = before !== null && name in before;
  const has = after !== null && name in after;
  return (
    <>
      <dt className="font-medium text-slate-700 dark:text-slate-300">{name}</dt>
      <dd className={wrap}>
        {had && has && !same(before[name], after[name]) ? (
          <>
            <span className="text-red-700 line-through dark:text-red-300">{shown(before[name])}</span>
            {" → "}
            <span className="text-green-800 dark:text-green-300">{shown(after[name])}</span>
          </>
        ) : (
          shown(has ? after?.[name] : before?.[name])
        )}
      </dd>
    </>
  );
}

/**
 * An entry's before and after, folded: field by field in a definition list when both are objects
 * (a changed field as "old → new"), else as wrapped, pretty JSON. Nothing is cut at the cell's edge.
 */
export function AuditChange({ before, after }: { before: unknown; after: unknown }) {
  const none = (value: unknown) => value === null || value === undefined;
  if (none(before) && none(after)) return <span className="text-slate-400">—</span>;
  const keyed = (none(before) || isFields(before)) && (none(after) || isFields(after));
  const summary = none(before) ? "After" : none(after) ? "Before" : "Before → after";
  return (
    <details className="min-w-64">
      <summary className="cursor-pointer text-indigo-700 dark:text-indigo-300">{summary}</summary>
      {keyed ? (
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 rounded bg-slate-50 p-2 text-xs dark:bg-slate-800/60">
          {[...new Set([...Object.keys(isFields(before) ? before : {}), ...Object.keys(isFields(after) ? after : {})])].map((name) => (
            <FieldChange key={name} name={name} before={isFields(before) ? before : null} after={isFields(after) ? after : null} />
          ))}
        </dl>
      ) : (
        <pre className={`mt-2 max-h-96 overflow-y-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800 ${wrap}`}>
          {JSON.stringify(none(before) ? after : none(after) ? before : { before, after }, null, 2)}
        </pre>
      )}
    </details>
  );
}
