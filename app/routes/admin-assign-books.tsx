import { useState } from "react";
import { data, useFetcher } from "react-router";
import { dayOf, defaultLicenceTerms } from "#shared/rules/licence.ts";
import { assignBooksCommand, revokeAccessCommand } from "../../workers/books/commands.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { schoolBooks } from "../../workers/schools/books.ts";
import { SchoolIdSchema } from "../../workers/schools/input.ts";
import { findSchoolRow } from "../../workers/schools/list.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { useAnswerNotice } from "../components/admin/answer-notice.ts";
import { AssignedBooks } from "../components/admin/assigned-books.tsx";
import { formText, licenceTermsInput } from "../components/admin/book/form-input.ts";
import { BookPicker } from "../components/admin/book-picker.tsx";
import { type LicenceTerms, LicenceTermsFields } from "../components/admin/licence-terms.tsx";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { Button } from "../components/ui/button.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-assign-books";

export const meta: Route.MetaFunction = () => [{ title: "Assign Books · Lectern Admin" }];

const NOT_FOUND = "School not found";

/** The school and the books it has already (listed, and marked in the picker). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(appContext).db;
  const id = parseInput(SchoolIdSchema, params.schoolId);
  const school = id.ok ? await findSchoolRow(db, id.data) : null;
  if (!school) throw data(NOT_FOUND, { status: 404 });
  return {
    school: { id: school.id, schoolName: school.schoolName },
    assigned: await schoolBooks(db, school.id),
    defaultTerms: defaultLicenceTerms(dayOf(Date.now())),
  };
}

/**
 * Intent "assign" (the default): as POST /api/books/access for this one school. Intent
 * "unassign": as DELETE /api/books/access/:schoolId/:bookId. The same checks, messages and audit entries.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const id = parseInput(SchoolIdSchema, params.schoolId);
  if (!id.ok) return reply(failure("not-found", NOT_FOUND), { intent: null });
  const form = await request.formData().catch(() => new FormData());
  if (formText(form, "intent") === "unassign") {
    const outcome = await runCommand({ context, request }, revokeAccessCommand, {
      schoolId: params.schoolId,
      bookId: formText(form, "bookId"),
    });
    return reply(outcome, { intent: "unassign" as const }, () => ({ intent: "unassign" as const, removed: true }));
  }
  const bookIds = form.getAll("bookId").map((value) => Number(value));
  const outcome = await runCommand({ context, request }, assignBooksCommand, {
    schoolId: params.schoolId,
    bookIds,
    ...licenceTermsInput(form),
  });
  return reply(outcome, { intent: "assign" as const }, (value) => ({ intent: "assign" as const, ...value }));
}

/** Many books to one school; the books it has already are listed first, each with Unassign. */
export default function AdminAssignBooks({ loaderData }: Route.ComponentProps) {
  const { school, assigned, defaultTerms } = loaderData;
  const [terms, setTerms] = useState<LicenceTerms>(defaultTerms);
  const fetcher = useFetcher<typeof action>();
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const busy = fetcher.state !== "idle";
  const assignedIds = new Set(assigned.books.map((book) => book.id));

  const [message, setMessage] = useAnswerNotice(fetcher.data, (answer) => {
    if (!("assigned" in answer)) return undefined;
    setPicked(new Set());
    return { text: `${answer.assigned} book(s) assigned (${answer.created} new).`, tone: "success" };
  });

  return (
    <div className="max-w-4xl space-y-6">
      <AdminPageHeader title="Assign Books" description={`Books for ${school.schoolName}`} />
      {message && <MessageBox text={message.text} tone={message.tone} />}
      <AssignedBooks schoolName={school.schoolName} books={assigned.books} total={assigned.total} onDone={setMessage} />
      <section className={cardClasses} aria-labelledby="add-books-title">
        <h2 id="add-books-title" className="mb-3 font-semibold">
          Add books
        </h2>
        <BookPicker
          picked={picked}
          assigned={assignedIds}
          onToggle={(book) =>
            setPicked((current) => {
              const next = new Set(current);
              if (next.has(book.id)) next.delete(book.id);
              else next.add(book.id);
              return next;
            })
          }
        />
        <fetcher.Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="assign" />
          <LicenceTermsFields value={terms} onChange={setTerms} refused={busy ? null : fetcher.data} />
          <input type="hidden" name="startsOn" value={terms.startsOn} />
          <input type="hidden" name="endsOn" value={terms.endsOn} />
          <input type="hidden" name="seats" value={terms.seats} />
          <input type="hidden" name="offlineAllowed" value={String(terms.offlineAllowed)} />
          <input type="hidden" name="offlineDays" value={terms.offlineDays} />
          {[...picked].map((id) => (
            <input key={id} type="hidden" name="bookId" value={id} />
          ))}
          <Button type="submit" disabled={picked.size === 0 || busy}>
            {busy ? "Assigning..." : `Assign ${picked.size} book(s)`}
          </Button>
        </fetcher.Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <SchoolPageError fallback={NOT_FOUND} title="Assign Books" />;
}
