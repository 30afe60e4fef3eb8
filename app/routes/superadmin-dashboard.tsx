import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { redirect, useNavigate } from "react-router";
import {
  AdminPageHeader,
  cardClasses,
  Pager,
  rowClasses,
  TableState,
  tableClasses,
  theadClasses,
} from "../components/admin/admin-page.tsx";
import { Button } from "../components/ui/button.tsx";
import { Field, inputClasses } from "../components/ui/field.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { clearAdminFlag } from "../lib/admin-flag.ts";
import { requestJson } from "../lib/api-client.ts";
import { formatDateTime } from "../lib/format-date.ts";
import { requireAdmin } from "../lib/guards/admin.server.ts";
import type { Route } from "./+types/superadmin-dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Superadmin · Lectern" }];

export async function loader(args: Route.LoaderArgs) {
  const session = requireAdmin(args);
  if (session.admin.role !== "superadmin") throw redirect("/superadmin/login");
  return { admin: session.admin };
}

type AdminRow = { id: number; email: string; name: string; role: string; disabled: boolean; createdAt: number };
type AuditRow = {
  id: number;
  adminEmail: string;
  action: string;
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  at: number;
};

export default function SuperadminDashboard({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const stats = useQuery({
    queryKey: ["super-stats"],
    queryFn: () =>
      requestJson<Record<"schools" | "books" | "teachers" | "loginsThisWeek", number>>("/api/superadmin/stats", {
        fallback: "Failed to load figures",
      }),
  });
  async function signOut() {
    await requestJson("/api/admin/logout", { method: "POST", body: {}, fallback: "" }).catch(() => null);
    clearAdminFlag();
    navigate("/superadmin/login", { replace: true });
  }
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <AdminPageHeader
        title="Superadmin Dashboard"
        description={`Signed in as ${loaderData.admin.email}`}
        actions={
          <Button variant="secondary" onClick={signOut}>
            Sign out
          </Button>
        }
      />
      <div className="grid gap-4 sm:grid-cols-4">
        {(
          [
            ["Schools", stats.data?.schools],
            ["Books", stats.data?.books],
            ["Teachers", stats.data?.teachers],
            ["Logins this week", stats.data?.loginsThisWeek],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className={cardClasses}>
            <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums">{value?.toLocaleString("en-US") ?? "…"}</p>
          </div>
        ))}
      </div>
      <Admins selfId={loaderData.admin.id} />
      <AuditLog />
    </main>
  );
}

function Admins({ selfId }: { selfId: number }) {
  const client = useQueryClient();
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const admins = useQuery({
    queryKey: ["super-admins"],
    queryFn: () => requestJson<{ admins: AdminRow[] }>("/api/superadmin/admins", { fallback: "Failed to load admins" }),
  });
  const update = useMutation({
    mutationFn: ({ id, change }: { id: number; change: { disabled?: boolean; password?: string } }) =>
      requestJson(`/api/superadmin/admins/${id}`, { method: "PUT", body: change, fallback: "Failed to update the account" }),
    onSuccess: (_, { change }) => {
      setMessage({ text: change.password ? "Password reset. The admin's sessions were ended." : "Account updated.", tone: "success" });
      void client.invalidateQueries({ queryKey: ["super-admins"] });
      void client.invalidateQueries({ queryKey: ["super-audit"] });
    },
    onError: (e) => setMessage({ text: e.message }),
  });
  return (
    <section className={cardClasses} aria-labelledby="admins-title">
      <h2 id="admins-title" className="mb-3 font-semibold">
        Admin accounts
      </h2>
      {message && (
        <div className="mb-3">
          <MessageBox text={message.text} tone={message.tone} />
        </div>
      )}
      <TableState loading={admins.isPending} error={admins.error} empty={admins.data?.admins.length === 0} />
      {admins.data && (
        <table className={tableClasses}>
          <thead className={theadClasses}>
            <tr>
              <th className="py-2 pr-4">Admin</th>
              <th className="py-2 pr-4">Role</th>
              <th className="py-2 pr-4">Status</th>
              <th className="py-2 pr-4">Actions</th>
            </tr>
          </thead>
          <tbody>
            {admins.data.admins.map((a) => (
              <tr key={a.id} className={rowClasses}>
                <td className="py-2 pr-4">
                  <span className="font-medium">{a.name}</span>
                  <span className="block text-xs text-slate-500">{a.email}</span>
                </td>
                <td className="py-2 pr-4">{a.role}</td>
                <td className="py-2 pr-4">{a.disabled ? <span className="text-red-700 dark:text-red-300">Disabled</span> : "Active"}</td>
                <td className="space-x-2 py-2 pr-4">
                  {a.id !== selfId && (
                    <Button
                      variant="secondary"
                      className="px-3 py-1.5"
                      onClick={() => update.mutate({ id: a.id, change: { disabled: !a.disabled } })}
                    >
                      {a.disabled ? "Enable" : "Disable"}
                    </Button>
                  )}
                  <Button
                    variant="secondary"
                    className="px-3 py-1.5"
                    onClick={() => {
                      const password = window.prompt(`New password for ${a.email} (at least 8 characters):`);
                      if (password) update.mutate({ id: a.id, change: { password } });
                    }}
                  >
                    Reset password
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateAdmin onCreated={() => client.invalidateQueries({ queryKey: ["super-admins"] })} />
    </section>
  );
}

function CreateAdmin({ onCreated }: { onCreated: () => void }) {
  const [values, setValues] = useState({ name: "", email: "", password: "", role: "admin" });
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const create = useMutation({
    mutationFn: () => requestJson("/api/superadmin/admins", { body: values, fallback: "Failed to create the account" }),
    onSuccess: () => {
      setMessage({ text: `Account created for ${values.email}.`, tone: "success" });
      setValues({ name: "", email: "", password: "", role: "admin" });
      onCreated();
    },
    onError: (e) => setMessage({ text: e.message }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-6 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-5 dark:border-slate-800" noValidate>
      <h3 className="font-medium sm:col-span-5">New admin account</h3>
      {(["name", "email", "password"] as const).map((key) => (
        <Field key={key} label={key[0]!.toUpperCase() + key.slice(1)} htmlFor={`new-admin-${key}`}>
          <input
            id={`new-admin-${key}`}
            type={key === "password" ? "password" : key === "email" ? "email" : "text"}
            autoComplete={key === "password" ? "new-password" : "off"}
            className={inputClasses}
            value={values[key]}
            onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
          />
        </Field>
      ))}
      <Field label="Role" htmlFor="new-admin-role">
        <select
          id="new-admin-role"
          className={inputClasses}
          value={values.role}
          onChange={(e) => setValues((v) => ({ ...v, role: e.target.value }))}
        >
          <option value="admin">Admin</option>
          <option value="superadmin">Superadmin</option>
        </select>
      </Field>
      <div className="flex items-end">
        <Button type="submit" disabled={create.isPending} className="w-full">
          {create.isPending ? "Creating..." : "Create"}
        </Button>
      </div>
      {message && (
        <div className="sm:col-span-5">
          <MessageBox text={message.text} tone={message.tone} />
        </div>
      )}
    </form>
  );
}

function AuditLog() {
  const [page, setPage] = useState(1);
  const audit = useQuery({
    queryKey: ["super-audit", page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      requestJson<{ entries: AuditRow[]; total: number; pageSize: number }>(`/api/superadmin/audit?page=${page}&pageSize=25`, {
        fallback: "Failed to load the audit log",
      }),
  });
  return (
    <section className={cardClasses} aria-labelledby="audit-title">
      <h2 id="audit-title" className="mb-3 font-semibold">
        Audit log
      </h2>
      <TableState loading={audit.isPending} error={audit.error} empty={audit.data?.entries.length === 0} />
      {audit.data && audit.data.entries.length > 0 && (
        <table className={tableClasses}>
          <thead className={theadClasses}>
            <tr>
              <th className="py-2 pr-4">When</th>
              <th className="py-2 pr-4">Who</th>
              <th className="py-2 pr-4">What</th>
              <th className="py-2 pr-4">Change</th>
            </tr>
          </thead>
          <tbody>
            {audit.data.entries.map((entry) => (
              <tr key={entry.id} className={`${rowClasses} align-top`}>
                <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(entry.at)}</td>
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
      {audit.data && <Pager page={page} pageSize={25} total={audit.data.total} onPage={setPage} />}
    </section>
  );
}
