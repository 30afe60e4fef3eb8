import { Form, Link } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";

type Audit = Route.ComponentProps["loaderData"]["audit"];

const label = "block text-xs font-medium text-slate-600 dark:text-slate-400";

/**
 * The audit log's filters as a GET form: who (an actor's e-mail, with the accounts offered),
 * what (one action), and a date range in UTC. Applying starts again at page 1.
 */
export function AuditFilters({ filters, actions, actors }: { filters: Audit["filters"]; actions: Audit["actions"]; actors: string[] }) {
  const known = actions.some((action) => action.value === filters.what);
  return (
    <Form method="get" preventScrollReset className="mb-4 grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto_auto_auto]">
      <div>
        <label htmlFor="audit-who" className={label}>
          Who (e-mail)
        </label>
        <input
          id="audit-who"
          name="who"
          type="search"
          list="audit-actors"
          defaultValue={filters.who}
          placeholder="Anyone"
          className={`${inputClasses} mt-1`}
        />
        <datalist id="audit-actors">
          {actors.map((email) => (
            <option key={email} value={email} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor="audit-what" className={label}>
          What
        </label>
        <select id="audit-what" name="what" defaultValue={filters.what} className={`${inputClasses} mt-1`}>
          <option value="">Any action</option>
          {!known && filters.what && <option value={filters.what}>{filters.what}</option>}
          {actions.map((action) => (
            <option key={action.value} value={action.value}>
              {action.label}
            </option>
          ))}
        </select>
      </div>
      <DayFilter name="from" label="From (UTC)" value={filters.from} />
      <DayFilter name="to" label="To (UTC)" value={filters.to} />
      <div className="flex gap-2">
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        <Link to="?" preventScrollReset className="self-center text-sm text-indigo-700 hover:underline dark:text-indigo-300">
          Clear
        </Link>
      </div>
    </Form>
  );
}

/** One end of the date range, a day in UTC. */
function DayFilter({ name, label: text, value }: { name: "from" | "to"; label: string; value: string | undefined }) {
  return (
    <div>
      <label htmlFor={`audit-${name}`} className={label}>
        {text}
      </label>
      <input id={`audit-${name}`} name={name} type="date" defaultValue={value} className={`${inputClasses} mt-1`} />
    </div>
  );
}
