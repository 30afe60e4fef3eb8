import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { type SchoolChoice, SchoolSelect } from "../components/admin/school-select.tsx";
import { Button } from "../components/ui/button.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
import type { Route } from "./+types/admin-increase-login-count";

export const meta: Route.MetaFunction = () => [{ title: "Increase Login Count · Lectern Admin" }];

/** Raise how many teachers a school may register (the spec's "login count"). */
export default function AdminIncreaseLoginCount() {
  const client = useQueryClient();
  const [school, setSchool] = useState<SchoolChoice | null>(null);
  const [by, setBy] = useState("5");
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const raise = useMutation({
    mutationFn: () =>
      requestJson<{ teacherLimit: number }>(`/api/schools/logins/${school?.id}/increase-login-count`, {
        body: { by: Number(by) },
        fallback: "Failed to raise the limit",
      }),
    onSuccess: ({ teacherLimit }) => {
      setMessage({ text: `${school?.schoolName} may now have ${teacherLimit} teachers.`, tone: "success" });
      setSchool((s) => (s ? { ...s, teacherLimit } : s));
      void client.invalidateQueries({ queryKey: ["select-school"] });
    },
    onError: (e) => setMessage({ text: e.message }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(by);
    if (!Number.isInteger(n) || n < 1) return setMessage({ text: "Enter how many more teachers (a whole number, at least 1)." });
    raise.mutate();
  };
  return (
    <div className="max-w-3xl space-y-6">
      <AdminPageHeader
        title="Increase Login Count"
        description="Give a school room for more teachers. Existing teachers are never affected."
      />
      <div className={cardClasses}>
        <SchoolSelect value={school} onChange={setSchool} />
        {school && (
          <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
            <p className="w-full text-sm">
              <strong>{school.schoolName}</strong>: {school.teacherCount} of {school.teacherLimit} teacher slots used.
            </p>
            <label htmlFor="increase-by" className="text-sm">
              Add slots
              <input
                id="increase-by"
                type="number"
                min={1}
                max={10000}
                className={`${inputClasses} mt-1 w-32`}
                value={by}
                onChange={(e) => setBy(e.target.value)}
              />
            </label>
            <Button type="submit" disabled={raise.isPending}>
              {raise.isPending ? "Saving..." : "Increase"}
            </Button>
          </form>
        )}
      </div>
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}
