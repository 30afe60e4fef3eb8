import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import { AdminPageHeader, cardClasses, rowClasses, TableState, tableClasses, theadClasses } from "../components/admin/admin-page.tsx";
import { LoginsChart } from "../components/admin/logins-chart.tsx";
import { Button } from "../components/ui/button.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
import { formatDateTime } from "../lib/format-date.ts";
import type { Route } from "./+types/admin-school";

export const meta: Route.MetaFunction = () => [{ title: "School · Lectern Admin" }];

type School = {
  id: number;
  slug: string;
  schoolName: string;
  address1: string;
  address2: string | null;
  address3: string | null;
  city: string;
  state: string;
  zipCode: string;
  email: string;
  principal: string | null;
  teacherLimit: number;
  sessionLimit: number;
  teacherCount: number;
  totalLogins: number;
  bookCount: number;
  teachers: { id: number; name: string; email: string; mobile: string; createdAt: number; lastLoginAt: number | null }[];
};

export default function AdminSchool() {
  const { id } = useParams();
  const school = useQuery({
    queryKey: ["admin-school", id],
    queryFn: () => requestJson<{ school: School }>(`/api/schools/${id}`, { fallback: "Failed to fetch school" }),
  });
  const slug = school.data?.school.slug;
  const history = useQuery({
    queryKey: ["login-history", slug],
    enabled: Boolean(slug),
    queryFn: () =>
      requestJson<{ days: { date: string; logins: number }[] }>(`/api/schools/slug/${slug}/login-history?days=90`, {
        fallback: "Failed to fetch login history",
      }),
  });
  const books = useQuery({
    queryKey: ["admin-school-books", id],
    queryFn: () =>
      requestJson<{ books: { id: number; title: string; author1: string; gradeLevel: number | null; subject: string | null }[] }>(
        `/api/schools/${id}/books`,
        { fallback: "Failed to fetch books" },
      ),
  });

  if (!school.data) return <TableState loading={school.isPending} error={school.error} empty={false} />;
  const s = school.data.school;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={s.schoolName}
        description={[s.address1, s.address2, s.address3, s.city, s.state, s.zipCode].filter(Boolean).join(", ")}
        actions={
          <>
            <ButtonLink to={`/admin/assign-books/${s.id}`} variant="secondary">
              Assign books
            </ButtonLink>
            <ButtonLink to={`/schools/${s.slug}`} variant="secondary" reloadDocument>
              Open portal
            </ButtonLink>
          </>
        }
      />
      <div className="grid gap-4 sm:grid-cols-4">
        {[
          ["Portal", `/${s.slug}`],
          ["Teachers", `${s.teacherCount} of ${s.teacherLimit}`],
          ["Books", String(s.bookCount)],
          ["Total logins", String(s.totalLogins)],
        ].map(([label, value]) => (
          <div key={label} className={cardClasses}>
            <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
            <p className="mt-1 text-lg font-semibold">{value}</p>
          </div>
        ))}
      </div>
      <section className={cardClasses} aria-labelledby="logins-title">
        <h2 id="logins-title" className="mb-3 font-semibold">
          Logins per day
        </h2>
        {history.data ? (
          <LoginsChart days={history.data.days} />
        ) : (
          <TableState loading={history.isPending} error={history.error} empty={false} />
        )}
      </section>
      <TeacherLimit schoolId={s.id} limit={s.teacherLimit} teachers={s.teacherCount} />
      <SessionLimit schoolId={s.id} limit={s.sessionLimit} />
      <section className={cardClasses} aria-labelledby="teachers-title">
        <h2 id="teachers-title" className="mb-3 font-semibold">
          Teachers
        </h2>
        <TableState loading={false} error={null} empty={s.teachers.length === 0} />
        {s.teachers.length > 0 && (
          <table className={tableClasses}>
            <thead className={theadClasses}>
              <tr>
                <th className="py-2 pr-4">Name</th>
                <th className="py-2 pr-4">E-mail</th>
                <th className="py-2 pr-4">Mobile</th>
                <th className="py-2 pr-4">Registered</th>
                <th className="py-2 pr-4">Last login</th>
              </tr>
            </thead>
            <tbody>
              {s.teachers.map((t) => (
                <tr key={t.id} className={rowClasses}>
                  <td className="py-2 pr-4 font-medium">{t.name}</td>
                  <td className="py-2 pr-4">{t.email}</td>
                  <td className="py-2 pr-4 tabular-nums">{t.mobile}</td>
                  <td className="py-2 pr-4">{formatDateTime(t.createdAt)}</td>
                  <td className="py-2 pr-4">{formatDateTime(t.lastLoginAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className={cardClasses} aria-labelledby="books-title">
        <h2 id="books-title" className="mb-3 font-semibold">
          Assigned books
        </h2>
        <TableState loading={books.isPending} error={books.error} empty={books.data?.books.length === 0} />
        <ul className="grid gap-2 sm:grid-cols-2">
          {books.data?.books.map((b) => (
            <li key={b.id}>
              <Link to={`/admin/book/${b.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                {b.title}
              </Link>
              <span className="text-xs text-slate-500">
                {" "}
                · {[b.gradeLevel ? `Standard ${b.gradeLevel}` : null, b.subject].filter(Boolean).join(" · ")}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** Raise (or set) how many teachers may register; never below the teachers already there. */
function TeacherLimit({ schoolId, limit, teachers }: { schoolId: number; limit: number; teachers: number }) {
  return (
    <NumberSetting
      id="teacher-limit"
      title="Teacher limit"
      label="Teachers allowed"
      initial={limit}
      min={teachers}
      max={10000}
      saveLabel="Save limit"
      check={(n) => (n < teachers ? `The limit cannot be below the ${teachers} teachers already registered.` : null)}
      save={async (n) => {
        const { teacherLimit } = await requestJson<{ teacherLimit: number }>(`/api/schools/logins/${schoolId}/increase-login-count`, {
          body: { limit: n },
          fallback: "Failed to update the limit",
        });
        return `Teacher limit is now ${teacherLimit}.`;
      }}
    />
  );
}

/** How many devices one teacher may stay signed in on; a sign-in past it ends the oldest session. */
function SessionLimit({ schoolId, limit }: { schoolId: number; limit: number }) {
  return (
    <NumberSetting
      id="session-limit"
      title="Sign-ins per teacher"
      description="A teacher who signs in on one more device than this is signed out of their oldest sign-in."
      label="Devices at once"
      initial={limit}
      min={1}
      max={20}
      saveLabel="Save"
      check={() => null}
      save={async (n) => {
        await requestJson(`/api/schools/${schoolId}`, { method: "PUT", body: { sessionLimit: n }, fallback: "Failed to save" });
        return `Each teacher may now be signed in on ${n} device(s) at once.`;
      }}
    />
  );
}

/** One whole-number setting of the school in its own card: validated, saved, and the school reloaded. */
function NumberSetting(props: {
  id: string;
  title: string;
  description?: string;
  label: string;
  initial: number;
  min: number;
  max: number;
  saveLabel: string;
  check: (value: number) => string | null;
  save: (value: number) => Promise<string>;
}) {
  const client = useQueryClient();
  const [value, setValue] = useState(String(props.initial));
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const save = useMutation({
    mutationFn: () => props.save(Number(value)),
    onSuccess: (text) => {
      setMessage({ text, tone: "success" });
      void client.invalidateQueries({ queryKey: ["admin-school"] });
    },
    onError: (e) => setMessage({ text: e.message }),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    const n = Number(value);
    const problem = Number.isInteger(n) ? props.check(n) : null;
    if (problem) return setMessage({ text: problem });
    if (!Number.isInteger(n) || n < props.min || n > props.max)
      return setMessage({ text: `Enter a whole number from ${props.min} to ${props.max}.` });
    save.mutate();
  }
  const titleId = `${props.id}-title`;
  return (
    <section className={cardClasses} aria-labelledby={titleId}>
      <h2 id={titleId} className="font-semibold">
        {props.title}
      </h2>
      {props.description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{props.description}</p>}
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3">
        <label htmlFor={props.id} className="text-sm">
          {props.label}
          <input
            id={props.id}
            type="number"
            min={props.min}
            max={props.max}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            className={`${inputClasses} mt-1 w-32`}
          />
        </label>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : props.saveLabel}
        </Button>
      </form>
      {message && (
        <div className="mt-3">
          <MessageBox text={message.text} tone={message.tone} />
        </div>
      )}
    </section>
  );
}
