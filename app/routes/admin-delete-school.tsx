import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { deleteSchoolCommand } from "../../workers/schools/commands.ts";
import { SchoolIdSchema } from "../../workers/schools/input.ts";
import { findSchoolRow } from "../../workers/schools/list.ts";
import { useAnswerNotice } from "../components/admin/answer-notice.ts";
import { SchoolActionPage } from "../components/admin/school-action-page.tsx";
import type { SchoolChoice } from "../components/admin/school-select.tsx";
import { Button } from "../components/ui/button.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../components/ui/field-error.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import { firstSchools } from "../lib/school-list.server.ts";
import type { Route } from "./+types/admin-delete-school";

export const meta: Route.MetaFunction = () => [{ title: "Delete School · Lectern Admin" }];

/** The first schools by name, for the list before the admin searches. */
export async function loader({ context }: Route.LoaderArgs) {
  return { schools: await firstSchools(context.get(appContext).db) };
}

/** As DELETE /api/schools/:id (audited), once the posted slug matches the school's: the page's confirmation, checked here too. */
export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(appContext).db;
  const form = await request.formData().catch(() => new FormData());
  const id = parseInput(SchoolIdSchema, form.get("schoolId"));
  const school = id.ok ? await findSchoolRow(db, id.data) : null;
  if (!school) return reply(failure("not-found", "School not found"));
  if (form.get("confirm") !== school.slug) return reply(failure("invalid", `Type ${school.slug} to confirm.`, "confirm"));
  const outcome = await runCommand({ context, request }, deleteSchoolCommand, { id: String(school.id) });
  return reply(outcome, {}, () => ({ deleted: school.schoolName }));
}

/** Deleting a school takes its teachers, sessions, codes, assignments and progress with it: the slug must be typed. */
export default function AdminDeleteSchool({ loaderData }: Route.ComponentProps) {
  const client = useQueryClient();
  const fetcher = useFetcher<typeof action>();
  const [school, setSchool] = useState<SchoolChoice | null>(null);
  const [typed, setTyped] = useState("");
  const deleting = fetcher.state !== "idle";
  const refused = deleting ? null : fieldError(fetcher.data, "confirm");
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, fetcher.data);

  const [message] = useAnswerNotice(fetcher.data, ({ deleted }) => {
    setSchool(null);
    setTyped("");
    // The first schools come again with the page's data; searches are asked again.
    void client.invalidateQueries();
    return { text: `${deleted} was deleted.`, tone: "success" };
  });

  return (
    <SchoolActionPage
      title="Delete School"
      description="This removes the school and everything that belongs to it. Books stay in the catalogue."
      initial={loaderData.schools}
      school={school}
      onSchool={(s) => {
        setSchool(s);
        setTyped("");
      }}
      message={message}
    >
      {(school) => (
        <fetcher.Form
          ref={form}
          method="post"
          onSubmit={(event) => typed !== school.slug && event.preventDefault()}
          className="mt-4 space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
        >
          <input type="hidden" name="schoolId" value={school.id} />
          <MessageBox
            text={`Deleting ${school.schoolName} also deletes its ${school.teacherCount} teacher account(s), their sessions and reading progress, and its book assignments. This cannot be undone.`}
          />
          <label htmlFor="confirm-slug" className="block text-sm">
            Type <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">{school.slug}</code> to confirm
            <input
              id="confirm-slug"
              name="confirm"
              autoComplete="off"
              className={`${inputClasses} mt-1 max-w-sm font-mono`}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              {...invalidProps("confirm-slug", refused)}
            />
          </label>
          <FieldError inputId="confirm-slug" message={refused} />
          <Button type="submit" disabled={typed !== school.slug || deleting} className="bg-red-600 hover:bg-red-700">
            {deleting ? "Deleting..." : "Delete school"}
          </Button>
        </fetcher.Form>
      )}
    </SchoolActionPage>
  );
}
