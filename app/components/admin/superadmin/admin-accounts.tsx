import { Form, useSubmit } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { Button } from "../../ui/button.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";
import { CreateAdmin } from "./create-admin.tsx";

type DashboardData = Route.ComponentProps["loaderData"];
type DashboardAnswer = Route.ComponentProps["actionData"];

/** What the last change to an account said (intent "update"). */
function updateMessage(answer: DashboardAnswer): { text: string; tone?: "success" } | null {
  if (answer?.intent !== "update") return null;
  if ("error" in answer) return { text: answer.error };
  if ("passwordReset" in answer)
    return { text: answer.passwordReset ? "Password reset. The admin's sessions were ended." : "Account updated.", tone: "success" };
  return null;
}

/** The admin accounts: disable or enable one (a plain form), reset a password (asked in a prompt), add one. */
export function AdminAccounts({ admins, selfId, answer }: { admins: DashboardData["admins"]; selfId: number; answer: DashboardAnswer }) {
  const submit = useSubmit();
  const message = updateMessage(answer);
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
      <TableState loading={false} error={null} empty={admins.length === 0} />
      {admins.length > 0 && (
        <table className={tableClasses}>
          <TableHead columns={["Admin", "Role", "Status", "Actions"]} />
          <tbody>
            {admins.map((a) => (
              <tr key={a.id} className={rowClasses}>
                <td className="py-2 pr-4">
                  <span className="font-medium">{a.name}</span>
                  <span className="block text-xs text-slate-500">{a.email}</span>
                </td>
                <td className="py-2 pr-4">{a.role}</td>
                <td className="py-2 pr-4">{a.disabled ? <span className="text-red-700 dark:text-red-300">Disabled</span> : "Active"}</td>
                <td className="space-x-2 py-2 pr-4">
                  {a.id !== selfId && (
                    <Form method="post" preventScrollReset className="inline">
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={a.id} />
                      <input type="hidden" name="disabled" value={String(!a.disabled)} />
                      <Button type="submit" variant="secondary" className="px-3 py-1.5">
                        {a.disabled ? "Enable" : "Disable"}
                      </Button>
                    </Form>
                  )}
                  <Button
                    variant="secondary"
                    className="px-3 py-1.5"
                    onClick={() => {
                      const password = window.prompt(`New password for ${a.email} (at least 8 characters):`);
                      if (password)
                        void submit({ intent: "update", id: String(a.id), password }, { method: "post", preventScrollReset: true });
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
      <CreateAdmin answer={answer} />
    </section>
  );
}
