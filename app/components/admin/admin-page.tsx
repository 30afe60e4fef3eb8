import type { ReactNode } from "react";
import { Spinner } from "../ui/spinner.tsx";

export function AdminPageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {description && <p className="mt-1 text-slate-600 dark:text-slate-400">{description}</p>}
      </div>
      {actions && <div className="flex gap-2">{actions}</div>}
    </div>
  );
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="mt-4 flex items-center justify-between text-sm text-slate-600 dark:text-slate-400">
      <span>
        {total === 0
          ? "No results"
          : `${(page - 1) * pageSize + 1}–${Math.min(total, page * pageSize)} of ${total.toLocaleString("en-US")}`}
      </span>
      <div className="flex gap-2">
        <button
          type="button"
          className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-40 dark:border-slate-700"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </button>
        <button
          type="button"
          className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-40 dark:border-slate-700"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </div>
    </div>
  );
}

export function TableState({ loading, error, empty }: { loading: boolean; error: Error | null; empty: boolean }) {
  if (loading)
    return (
      <div className="flex justify-center py-12 text-indigo-600">
        <Spinner label="Loading" className="h-7 w-7" />
      </div>
    );
  if (error) return <p className="py-8 text-center text-red-700 dark:text-red-300">{error.message}</p>;
  if (empty) return <p className="py-8 text-center text-slate-600 dark:text-slate-400">Nothing here yet.</p>;
  return null;
}

export const tableClasses = "w-full text-left text-sm";
export const theadClasses =
  "border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:text-slate-400";
export const rowClasses = "border-b border-slate-100 last:border-0 hover:bg-slate-50 dark:border-slate-800/70 dark:hover:bg-slate-900";
export const cardClasses =
  "overflow-x-auto rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900";

/** A table's header row: one column heading per name. */
export function TableHead({ columns, pad = "pr-4" }: { columns: string[]; pad?: string }) {
  return (
    <thead className={theadClasses}>
      <tr>
        {columns.map((column) => (
          <th key={column} className={`py-2 ${pad}`}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
