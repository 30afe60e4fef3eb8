import { useSearchParams } from "react-router";
import { AUDIT_RETENTION_NOTE } from "#shared/rules/retention.ts";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses, Pager, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";
import { AuditChange } from "./audit-change.tsx";
import { AuditFilters } from "./audit-filters.tsx";

type Audit = Route.ComponentProps["loaderData"]["audit"];

/** The CSV export's address for the filters the page shows (none when the URL's could not be read). */
function exportHref(audit: Audit): string {
  const query = new URLSearchParams();
  if (!audit.filterError) for (const [key, value] of Object.entries(audit.filters)) if (value) query.set(key, value);
  const text = query.toString();
  return `/api/superadmin/audit.csv${text ? `?${text}` : ""}`;
}

/**
 * One page of the audit log, newest first, filtered by the URL (?who=&what=&from=&to=&page=); each
 * entry names what it was done to, with its before and after folded; the filtered log exports as CSV.
 */
export function AuditLog({ audit, pageSize, actors }: { audit: Audit; pageSize: number; actors: string[] }) {
  const [, setSearchParams] = useSearchParams();
  return (
    <section className={cardClasses} aria-labelledby="audit-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="audit-title" className="font-semibold">
          Audit log
        </h2>
        <a
          href={exportHref(audit)}
          download
          className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Export CSV
        </a>
      </div>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{AUDIT_RETENTION_NOTE}</p>
      <AuditFilters filters={audit.filters} actions={audit.actions} actors={actors} />
      {audit.filterError && (
        <div className="mb-3">
          <MessageBox text={`${audit.filterError}. The whole log is shown.`} />
        </div>
      )}
      <TableState loading={false} error={null} empty={audit.entries.length === 0} />
      {audit.entries.length > 0 && (
        <table className={tableClasses}>
          <TableHead columns={["When", "Who", "What", "Change"]} />
          <tbody>
            {audit.entries.map((entry) => (
              <tr key={entry.id} className={`${rowClasses} align-top`}>
                <td className="py-2 pr-4 whitespace-nowrap">
                  <LocalDateTime value={entry.at} />
                </td>
                <td className="py-2 pr-4 [overflow-wrap:anywhere]">{entry.adminEmail}</td>
                <td className="py-2 pr-4 [overflow-wrap:anywhere]">{entry.what}</td>
                <td className="py-2 pr-4">
                  <AuditChange before={entry.before} after={entry.after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        page={audit.page}
        pageSize={pageSize}
        total={audit.total}
        onPage={(page) =>
          setSearchParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (page > 1) next.set("page", String(page));
              else next.delete("page");
              return next;
            },
            { preventScrollReset: true },
          )
        }
      />
    </section>
  );
}
