import type { useFetcher } from "react-router";
import { Button } from "../../ui/button.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";
import { AskFirstButton, ConfirmDialog, type RowAnswer, RowNotice, useRowActions } from "./ask-first.tsx";

/** A row of the table: the admin's list, or the coordinator's (without mobile numbers). */
export interface TeacherRow {
  id: number;
  name: string;
  email: string;
  mobile?: string;
  disabled: boolean;
  coordinator: boolean;
  sessions: number;
  createdAt: number;
  lastLoginAt: number | null;
}
type Teacher = TeacherRow;
type Fetcher = ReturnType<typeof useFetcher<RowAnswer>>;

/** The two actions that ask first: what each does, in the confirmation's words. */
const CONFIRM = {
  disable: {
    intent: "teacher-disable",
    verb: "Disable",
    title: (t: Teacher) => `Disable ${t.name}?`,
    description: (t: Teacher) =>
      `${t.name} (${t.email}) will be signed out everywhere at once and cannot sign in until you enable them again.`,
  },
  delete: {
    intent: "teacher-delete",
    verb: "Remove",
    title: (t: Teacher) => `Remove ${t.name}?`,
    description: (t: Teacher) =>
      `${t.name} (${t.email}) will be signed out everywhere and removed with their reading progress; their place at the school becomes free. This cannot be undone.`,
  },
} as const;

type Confirm = { kind: keyof typeof CONFIRM; teacher: Teacher };

/** One action of one teacher, posted to the page's action; its accessible name names the teacher. */
function ActionForm({
  fetcher,
  intent,
  label,
  teacher,
  busy,
}: {
  fetcher: Fetcher;
  intent: string;
  label: string;
  teacher: Teacher;
  busy: boolean;
}) {
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="teacherId" value={teacher.id} />
      <Button type="submit" variant="secondary" className="px-3 py-1.5" aria-label={`${label} ${teacher.name}`} disabled={busy}>
        {label}
      </Button>
    </fetcher.Form>
  );
}

/**
 * The school's teachers, with their state and sign-ins, and what may be done to each: disable or
 * enable, end every session, e-mail a password-reset code; for an admin also name or un-name a
 * coordinator and remove. Disabling and removing ask first. Each answer shows above the table (a
 * reset's says where the code went: it is the teacher's alone, never shown here). A coordinator
 * (`manage="coordinator"`, docs/decisions/0030) sees no mobile numbers and cannot disable or
 * enable a coordinator's account, themselves included.
 */
export function SchoolTeachers({ teachers, manage = "admin" }: { teachers: Teacher[]; manage?: "admin" | "coordinator" }) {
  const admin = manage === "admin";
  const { fetcher, answer, confirm, setConfirm, busy } = useRowActions<Confirm>("school-teachers", (intent) =>
    intent.startsWith("teacher-"),
  );
  const pending = busy ? String(fetcher.formData?.get("teacherId") ?? "") : null;

  return (
    <section className={cardClasses} aria-labelledby="teachers-title">
      <h2 id="teachers-title" className="mb-3 font-semibold">
        Teachers
      </h2>
      {/* A removed teacher's row (and the button that had focus) is gone: focus moves to the answer. */}
      <RowNotice answer={answer} focusOn={fetcher.data?.intent === "teacher-delete" ? fetcher.data : undefined} />
      <TableState loading={false} error={null} empty={teachers.length === 0} />
      {teachers.length > 0 && (
        <table className={tableClasses}>
          <TableHead
            columns={
              admin
                ? ["Name", "E-mail", "Mobile", "Status", "Sessions", "Registered", "Last login", "Actions"]
                : ["Name", "E-mail", "Status", "Sessions", "Registered", "Last login", "Actions"]
            }
          />
          <tbody>
            {teachers.map((t) => {
              const rowBusy = pending === String(t.id);
              return (
                <tr key={t.id} className={`${rowClasses} align-top`} aria-busy={rowBusy || undefined}>
                  <td className="py-2 pr-4 font-medium">{t.name}</td>
                  <td className="py-2 pr-4">{t.email}</td>
                  {admin && <td className="py-2 pr-4 tabular-nums">{t.mobile}</td>}
                  <td className="py-2 pr-4">
                    {t.coordinator && (
                      <span className="mr-1 mb-1 inline-block rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
                        Coordinator
                      </span>
                    )}
                    {t.disabled ? (
                      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">
                        Disabled
                      </span>
                    ) : (
                      <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-950 dark:text-green-200">
                        Active
                      </span>
                    )}
                  </td>
                  <td className="py-2 pr-4 tabular-nums">{t.sessions}</td>
                  <td className="py-2 pr-4">
                    <LocalDateTime value={t.createdAt} />
                  </td>
                  <td className="py-2 pr-4">
                    <LocalDateTime value={t.lastLoginAt} />
                  </td>
                  <td className="py-2 pr-4">
                    <div className="flex flex-wrap gap-2">
                      {!admin && t.coordinator ? null : t.disabled ? (
                        <ActionForm fetcher={fetcher} intent="teacher-enable" label="Enable" teacher={t} busy={busy} />
                      ) : (
                        <AskFirstButton label={`Disable ${t.name}`} busy={busy} onClick={() => setConfirm({ kind: "disable", teacher: t })}>
                          Disable
                        </AskFirstButton>
                      )}
                      <ActionForm fetcher={fetcher} intent="teacher-sign-out" label="End all sessions" teacher={t} busy={busy} />
                      <ActionForm fetcher={fetcher} intent="teacher-send-reset" label="Send password reset" teacher={t} busy={busy} />
                      {admin && (
                        <ActionForm
                          fetcher={fetcher}
                          intent={t.coordinator ? "teacher-uncoordinator" : "teacher-coordinator"}
                          label={t.coordinator ? "Remove coordinator" : "Make coordinator"}
                          teacher={t}
                          busy={busy}
                        />
                      )}
                      {admin && (
                        <AskFirstButton
                          label={`Remove ${t.name}`}
                          busy={busy}
                          onClick={() => setConfirm({ kind: "delete", teacher: t })}
                          className="text-red-700 dark:text-red-300"
                        >
                          Remove
                        </AskFirstButton>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        id="teacher-confirm-dialog"
        row={confirm}
        onClose={() => setConfirm(null)}
        ask={({ kind, teacher }) => ({
          title: CONFIRM[kind].title(teacher),
          description: CONFIRM[kind].description(teacher),
          fields: { intent: CONFIRM[kind].intent, teacherId: teacher.id },
          action: `${CONFIRM[kind].verb} ${teacher.name}`,
        })}
        Form={fetcher.Form}
        submitClassName="bg-red-600 hover:bg-red-700"
      />
    </section>
  );
}
