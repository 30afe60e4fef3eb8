import { useState } from "react";
import { Form } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { Button } from "../../ui/button.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";
import { DeleteAdminDialog, ResetPasswordDialog } from "./account-dialogs.tsx";
import { CreateAdmin } from "./create-admin.tsx";

type DashboardData = Route.ComponentProps["loaderData"];
type DashboardAnswer = Route.ComponentProps["actionData"];
type Account = DashboardData["admins"][number];
type Notice = { text: string; tone?: "success" };

/** What the last plain-form change to an account said (intent "update" or "delete" without the page's script). */
function answerMessage(answer: DashboardAnswer): Notice | null {
  if (answer?.intent !== "update" && answer?.intent !== "delete") return null;
  if ("error" in answer) return { text: answer.error };
  if ("passwordReset" in answer)
    return { text: answer.passwordReset ? "Password reset. The admin's sessions were ended." : "Account updated.", tone: "success" };
  if ("deleted" in answer) return { text: `The account of ${answer.deleted} was deleted.`, tone: "success" };
  return null;
}

/**
 * The admin accounts: disable or enable one (a plain form), reset a password or delete an account
 * (each in a dialog), add one.
 */
export function AdminAccounts({ admins, selfId, answer }: { admins: DashboardData["admins"]; selfId: number; answer: DashboardAnswer }) {
  const [resetting, setResetting] = useState<Account | null>(null);
  const [deleting, setDeleting] = useState<Account | null>(null);
  // A dialog's word stands until the next plain form's answer.
  const [said, setSaid] = useState<{ notice: Notice; after: DashboardAnswer } | null>(null);
  const notice = said && said.after === answer ? said.notice : answerMessage(answer);
  const setNotice = (next: Notice) => setSaid({ notice: next, after: answer });
  return (
    <section className={cardClasses} aria-labelledby="admins-title">
      <h2 id="admins-title" className="mb-3 font-semibold">
        Admin accounts
      </h2>
      {notice && (
        <div className="mb-3">
          <MessageBox text={notice.text} tone={notice.tone} />
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
                <td className="py-2 pr-4">
                  <div className="flex flex-wrap gap-2">
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
                      aria-label={`Reset password of ${a.email}`}
                      onClick={() => setResetting(a)}
                    >
                      Reset password
                    </Button>
                    {a.id !== selfId && (
                      <Button
                        variant="secondary"
                        className="px-3 py-1.5 text-red-700 dark:text-red-300"
                        aria-label={`Delete ${a.email}`}
                        onClick={() => setDeleting(a)}
                      >
                        Delete
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ResetPasswordDialog account={resetting} onClose={() => setResetting(null)} onDone={setNotice} />
      <DeleteAdminDialog account={deleting} onClose={() => setDeleting(null)} onDone={setNotice} />
      <CreateAdmin answer={answer} />
    </section>
  );
}
