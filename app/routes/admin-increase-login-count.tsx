import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { increaseTeacherLimitCommand } from "../../workers/schools/commands.ts";
import { SchoolIdSchema } from "../../workers/schools/input.ts";
import { useAnswerNotice } from "../components/admin/answer-notice.ts";
import { formNumber } from "../components/admin/school/form-values.ts";
import { SchoolActionPage } from "../components/admin/school-action-page.tsx";
import type { SchoolChoice } from "../components/admin/school-select.tsx";
import { Button } from "../components/ui/button.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../components/ui/field-error.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import { firstSchools } from "../lib/school-list.server.ts";
import type { Route } from "./+types/admin-increase-login-count";

export const meta: Route.MetaFunction = () => [{ title: "Increase Login Count · Lectern Admin" }];

/** The first schools by name, for the list before the admin searches. */
export async function loader({ context }: Route.LoaderArgs) {
  return { schools: await firstSchools(context.get(appContext).db) };
}

/** As POST /api/schools/logins/:id/increase-login-count with `by`: the same schema, refusals and audit entry. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const id = parseInput(SchoolIdSchema, form.get("schoolId"));
  if (!id.ok) return reply(failure("not-found", "School not found"));
  const outcome = await runCommand({ context, request }, increaseTeacherLimitCommand, {
    id: String(id.data),
    by: formNumber(form.get("by")),
  });
  return reply(outcome, {}, ({ teacherLimit }) => ({ schoolId: id.data, teacherLimit }));
}

/** Raise how many teachers a school may register (the spec's "login count"). */
export default function AdminIncreaseLoginCount({ loaderData }: Route.ComponentProps) {
  const client = useQueryClient();
  const fetcher = useFetcher<typeof action>();
  const [school, setSchool] = useState<SchoolChoice | null>(null);
  const [by, setBy] = useState("5");
  // The school the last post was about (the admin may choose another while it is under way).
  const [posted, setPosted] = useState<SchoolChoice | null>(null);
  const saving = fetcher.state !== "idle";
  // A refused number is marked on its field until the next post.
  const refused = saving ? null : fieldError(fetcher.data, "by");
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, fetcher.data);

  const [message, setMessage] = useAnswerNotice(fetcher.data, ({ schoolId, teacherLimit }) => {
    setSchool((s) => (s?.id === schoolId ? { ...s, teacherLimit } : s));
    void client.invalidateQueries({ queryKey: ["select-school"] });
    return { text: `${posted?.schoolName} may now have ${teacherLimit} teachers.`, tone: "success" };
  });

  const submit = (event: FormEvent) => {
    const n = Number(by);
    if (!Number.isInteger(n) || n < 1) {
      event.preventDefault();
      return setMessage({ text: "Enter how many more teachers (a whole number, at least 1)." });
    }
    setPosted(school);
  };
  return (
    <SchoolActionPage
      title="Increase Login Count"
      description="Give a school room for more teachers. Existing teachers are never affected."
      initial={loaderData.schools}
      school={school}
      onSchool={setSchool}
      message={message}
    >
      {(school) => (
        <fetcher.Form
          ref={form}
          method="post"
          onSubmit={submit}
          className="mt-4 flex flex-wrap items-end gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
        >
          <input type="hidden" name="schoolId" value={school.id} />
          <p className="w-full text-sm">
            <strong>{school.schoolName}</strong>: {school.teacherCount} of {school.teacherLimit} teacher slots used.
          </p>
          <label htmlFor="increase-by" className="text-sm">
            Add slots
            <input
              id="increase-by"
              name="by"
              type="number"
              min={1}
              max={10000}
              className={`${inputClasses} mt-1 w-32`}
              value={by}
              onChange={(e) => setBy(e.target.value)}
              {...invalidProps("increase-by", refused)}
            />
          </label>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Increase"}
          </Button>
          <FieldError inputId="increase-by" message={refused} className="w-full" />
        </fetcher.Form>
      )}
    </SchoolActionPage>
  );
}
