import { useNavigate } from "react-router";
import { auditActionOptions, auditPage } from "../../workers/admins/audit-log.ts";
import { createAdminCommand, deleteAdminCommand, updateAdminCommand } from "../../workers/admins/commands.ts";
import { AuditQuerySchema } from "../../workers/admins/input.ts";
import { globalFigures, listAdmins } from "../../workers/admins/superadmin.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { formText } from "../components/admin/book/form-input.ts";
import { AdminAccounts } from "../components/admin/superadmin/admin-accounts.tsx";
import { AuditLog } from "../components/admin/superadmin/audit-log.tsx";
import { Button } from "../components/ui/button.tsx";
import { clearAdminFlag } from "../lib/admin-flag.ts";
import { api, call } from "../lib/api-client.ts";
import { requireRole } from "../lib/guards/role.server.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/superadmin-dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Superadmin · Lectern" }];

const AUDIT_PAGE_SIZE = 25;
const FILTERS = ["who", "what", "from", "to"] as const;

/** The signed-in superadmin; a plain admin is sent to the superadmin login, from the page and its forms alike. */
/**
 * The figures, every admin account, and one page of the audit log, newest first, filtered by the
 * URL's ?who=&what=&from=&to= (filters it cannot read are named, and the whole log is shown).
 */
export async function loader(args: Route.LoaderArgs) {
  const { admin } = requireRole("superadmin", args);
  const db = args.context.get(appContext).db;
  const params = new URL(args.request.url).searchParams;
  const filters = Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const query = parseInput(AuditQuerySchema, { ...filters, page: params.get("page") ?? undefined, pageSize: AUDIT_PAGE_SIZE });
  const { page, pageSize, ...filter } = query.ok ? query.data : { page: 1, pageSize: AUDIT_PAGE_SIZE };
  const [figures, admins, audit] = await Promise.all([globalFigures(db), listAdmins(db), auditPage(db, filter, page, pageSize)]);
  return {
    admin,
    figures,
    admins,
    audit: { ...audit, filters, filterError: query.ok ? null : query.error, actions: auditActionOptions() },
  };
}

/**
 * Create an account (intent "create"); disable, enable or reset the password of one (intent
 * "update", the reset with its confirmation); delete one (intent "delete").
 */
export async function action(args: Route.ActionArgs) {
  requireRole("superadmin", args);
  const form = await args.request.formData();
  const intent = formText(form, "intent");
  if (intent === "create") {
    const outcome = await runCommand(args, createAdminCommand, {
      name: formText(form, "name"),
      email: formText(form, "email"),
      password: formText(form, "password"),
      role: formText(form, "role") || undefined,
    });
    return reply(outcome, { intent }, () => ({ intent, created: formText(form, "email") }));
  }
  if (intent === "delete") {
    const outcome = await runCommand(args, deleteAdminCommand, { id: formText(form, "id") });
    return reply(outcome, { intent }, ({ email }) => ({ intent, deleted: email }));
  }
  if (intent !== "update") return reply(failure("invalid", "Unknown action"), { intent: null });
  const change = {
    id: formText(form, "id"),
    disabled: form.has("disabled") ? formText(form, "disabled") === "true" : undefined,
    password: form.has("password") ? formText(form, "password") : undefined,
  };
  // The reset dialog sends the password twice: a mismatch is refused once the input is valid.
  const checked = parseInput(updateAdminCommand.input, change);
  if (checked.ok && form.has("confirm") && formText(form, "confirm") !== checked.data.password) {
    return reply(failure("invalid", "The two passwords do not match", "confirm"), { intent });
  }
  const outcome = await runCommand(args, updateAdminCommand, change);
  return reply(outcome, { intent }, () => ({ intent, passwordReset: change.password !== undefined }));
}

export default function SuperadminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, figures, admins, audit } = loaderData;
  const navigate = useNavigate();
  async function signOut() {
    await call(() => api.api.admin.logout.$post(), "").catch(() => null);
    clearAdminFlag();
    navigate("/superadmin/login", { replace: true });
  }
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <AdminPageHeader
        title="Superadmin Dashboard"
        description={`Signed in as ${admin.email}`}
        actions={
          <Button variant="secondary" onClick={signOut}>
            Sign out
          </Button>
        }
      />
      <div className="grid gap-4 sm:grid-cols-4">
        {(
          [
            ["Schools", figures.schools],
            ["Books", figures.books],
            ["Teachers", figures.teachers],
            ["Logins this week", figures.loginsThisWeek],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className={cardClasses}>
            <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums">{value.toLocaleString("en-US")}</p>
          </div>
        ))}
      </div>
      <AdminAccounts admins={admins} selfId={admin.id} answer={actionData} />
      <AuditLog audit={audit} pageSize={AUDIT_PAGE_SIZE} actors={admins.map((a) => a.email)} />
    </main>
  );
}
