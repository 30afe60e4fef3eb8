import { useEffect, useState } from "react";
import { data, useFetcher } from "react-router";
import { appContext } from "../../workers/http/context.ts";
import { describeZodError } from "../../workers/http/validate.ts";
import { AssignBooksSchema, assignBooksToSchool } from "../../workers/schools/books.ts";
import { SchoolIdSchema } from "../../workers/schools/input.ts";
import { findSchoolRow } from "../../workers/schools/list.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { BookPicker } from "../components/admin/book-picker.tsx";
import type { Notice } from "../components/admin/school/form-values.ts";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { Button } from "../components/ui/button.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { adminContext } from "../lib/guards/admin.server.ts";
import type { Route } from "./+types/admin-assign-books";

export const meta: Route.MetaFunction = () => [{ title: "Assign Books · Lectern Admin" }];

const NOT_FOUND = "School not found";

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = SchoolIdSchema.safeParse(params.schoolId);
  const school = id.success ? await findSchoolRow(context.get(appContext).db, id.data) : null;
  if (!school) throw data(NOT_FOUND, { status: 404 });
  return { school: { id: school.id, schoolName: school.schoolName } };
}

/** As POST /api/books/access for this one school: the same checks and the same audit entry. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { admin } = context.get(adminContext);
  const id = SchoolIdSchema.safeParse(params.schoolId);
  if (!id.success) return data({ error: NOT_FOUND }, { status: 404 });
  const form = await request.formData().catch(() => new FormData());
  const input = AssignBooksSchema.safeParse({ bookIds: form.getAll("bookId").map((value) => Number(value)) });
  if (!input.success) return data({ error: describeZodError(input.error) }, { status: 400 });
  const result = await assignBooksToSchool(context.get(appContext).db, { id: admin.id, email: admin.email }, id.data, input.data.bookIds);
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  return { assigned: new Set(input.data.bookIds).size, created: result.created };
}

/** Many books to one school. */
export default function AdminAssignBooks({ loaderData }: Route.ComponentProps) {
  const { school } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [message, setMessage] = useState<Notice | null>(null);
  const busy = fetcher.state !== "idle";

  // Each answer of the action once.
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer) return;
    if ("error" in answer) return setMessage({ text: answer.error });
    setMessage({ text: `${answer.assigned} book(s) assigned (${answer.created} new).`, tone: "success" });
    setPicked(new Set());
  }, [fetcher.data]);

  return (
    <div className="max-w-4xl space-y-6">
      <AdminPageHeader title="Assign Books" description={`Books for ${school.schoolName}`} />
      <section className={cardClasses}>
        <BookPicker
          picked={picked}
          onToggle={(book) =>
            setPicked((current) => {
              const next = new Set(current);
              if (next.has(book.id)) next.delete(book.id);
              else next.add(book.id);
              return next;
            })
          }
        />
        <fetcher.Form method="post" className="mt-4">
          {[...picked].map((id) => (
            <input key={id} type="hidden" name="bookId" value={id} />
          ))}
          <Button type="submit" disabled={picked.size === 0 || busy}>
            {busy ? "Assigning..." : `Assign ${picked.size} book(s)`}
          </Button>
        </fetcher.Form>
      </section>
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}

export function ErrorBoundary() {
  return <SchoolPageError fallback={NOT_FOUND} title="Assign Books" />;
}
