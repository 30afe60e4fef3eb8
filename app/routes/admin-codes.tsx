import { Form, Link } from "react-router";
import { listBatches } from "../../workers/codes/batches.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { AdminPageHeader, cardClasses, TableState } from "../components/admin/admin-page.tsx";
import { BatchesTable, LabelTotalsTable } from "../components/admin/codes/batches-table.tsx";
import { Button, buttonClasses } from "../components/ui/button.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import type { Route } from "./+types/admin-codes";

export const meta: Route.MetaFunction = () => [{ title: "Bookstore codes · Lectern Admin" }];

/** The batches (newest first, at most 500), of one label when `?label=` names it, and the totals of every label. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const label = new URL(request.url).searchParams.get("label")?.trim() || null;
  const { batches, labels } = await listBatches(context.get(appContext).db, label ? { label } : {});
  return { batches, labels, label };
}

/** The redemptions CSV (for invoicing the bookstores), of the label shown. */
function redemptionsHref(label: string | null): string {
  return `/api/codes/redemptions.csv${label ? `?${new URLSearchParams({ label }).toString()}` : ""}`;
}

export default function AdminCodes({ loaderData }: Route.ComponentProps) {
  const { batches, labels, label } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Bookstore codes"
        description="Batches of codes that bookstores sell with the printed books. A school's coordinator redeems a code on My school for the licence it gives."
        actions={
          <>
            <a href={redemptionsHref(label)} download className={buttonClasses("secondary")}>
              Redemptions CSV
            </a>
            <ButtonLink to="/admin/codes/new">New batch</ButtonLink>
          </>
        }
      />
      <section className={cardClasses} aria-labelledby="code-labels-title">
        <h2 id="code-labels-title" className="mb-3 font-semibold">
          {label ? `Label "${label}"` : "Per label"}
        </h2>
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          <label className="text-sm">
            <span className="mb-1 block font-medium">Label</span>
            <input name="label" list="code-labels" defaultValue={label ?? ""} className={`${inputClasses} w-72`} />
          </label>
          <datalist id="code-labels">
            {labels.map((row) => (
              <option key={row.label} value={row.label} />
            ))}
          </datalist>
          <Button type="submit" variant="secondary">
            Show
          </Button>
          {label && (
            <Link to="/admin/codes" className="text-sm text-indigo-700 underline dark:text-indigo-300">
              All labels
            </Link>
          )}
        </Form>
        <TableState loading={false} error={null} empty={labels.length === 0} />
        {labels.length > 0 && <LabelTotalsTable labels={labels} />}
      </section>
      <section className={cardClasses} aria-labelledby="code-batches-title">
        <h2 id="code-batches-title" className="mb-3 font-semibold">
          Batches
        </h2>
        <TableState loading={false} error={null} empty={batches.length === 0} />
        {batches.length > 0 && <BatchesTable batches={batches} />}
      </section>
    </div>
  );
}
