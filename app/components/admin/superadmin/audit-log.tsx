import { useSearchParams } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses, Pager, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";

type DashboardData = Route.ComponentProps["loaderData"];

/** One page of the audit log (the page's `?page=`), newest first. */
export function AuditLog({ audit, pageSize }: { audit: DashboardData["audit"]; pageSize: number }) {
  const [, setSearchParams] = useSearchParams();
  return (
    <section className={cardClasses} aria-labelledby="audit-title">
      <h2 id="audit-title" className="mb-3 font-semibold">
        Audit log
      </h2>
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
                <td className="py-2 pr-4">{entry.adminEmail}</td>
                <td className="py-2 pr-4">
                  {entry.action} {entry.entityType}
                  {entry.entityId ? ` #${entry.entityId}` : ""}
                </td>
                <td className="max-w-md py-2 pr-4">
                  <details>
                    <summary className="cursor-pointer text-indigo-700 dark:text-indigo-300">Before / after</summary>
                    <pre className="mt-1 overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
                      {JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}
                    </pre>
                  </details>
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
        onPage={(page) => setSearchParams(page > 1 ? { page: String(page) } : {}, { preventScrollReset: true })}
      />
    </section>
  );
}
