import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { type SchoolChoice, SchoolSelect } from "../components/admin/school-select.tsx";
import { Button } from "../components/ui/button.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
import type { Route } from "./+types/admin-delete-school";

export const meta: Route.MetaFunction = () => [{ title: "Delete School · Lectern Admin" }];

/** Deleting a school takes its teachers, sessions, codes, assignments and progress with it: the slug must be typed. */
export default function AdminDeleteSchool() {
  const client = useQueryClient();
  const [school, setSchool] = useState<SchoolChoice | null>(null);
  const [typed, setTyped] = useState("");
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const remove = useMutation({
    mutationFn: () => requestJson(`/api/schools/${school?.id}`, { method: "DELETE", fallback: "Failed to delete the school" }),
    onSuccess: () => {
      setMessage({ text: `${school?.schoolName} was deleted.`, tone: "success" });
      setSchool(null);
      setTyped("");
      void client.invalidateQueries();
    },
    onError: (e) => setMessage({ text: e.message }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (school && typed === school.slug) remove.mutate();
  };
  return (
    <div className="max-w-3xl space-y-6">
      <AdminPageHeader
        title="Delete School"
        description="This removes the school and everything that belongs to it. Books stay in the catalogue."
      />
      <div className={cardClasses}>
        <SchoolSelect
          value={school}
          onChange={(s) => {
            setSchool(s);
            setTyped("");
          }}
        />
        {school && (
          <form onSubmit={submit} className="mt-4 space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800">
            <MessageBox
              text={`Deleting ${school.schoolName} also deletes its ${school.teacherCount} teacher account(s), their sessions and reading progress, and its book assignments. This cannot be undone.`}
            />
            <label htmlFor="confirm-slug" className="block text-sm">
              Type <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">{school.slug}</code> to confirm
              <input
                id="confirm-slug"
                autoComplete="off"
                className={`${inputClasses} mt-1 max-w-sm font-mono`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
            </label>
            <Button type="submit" disabled={typed !== school.slug || remove.isPending} className="bg-red-600 hover:bg-red-700">
              {remove.isPending ? "Deleting..." : "Delete school"}
            </Button>
          </form>
        )}
      </div>
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}
