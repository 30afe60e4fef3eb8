import { useState } from "react";
import { dayOf, defaultLicenceTerms } from "#shared/rules/licence.ts";
import { assignToAllSchoolsCommand, grantAccessCommand } from "../../workers/books/commands.ts";
import { listAdminBooks } from "../../workers/books/list.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { countSchools } from "../../workers/schools/list.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { AssignToAllSchools } from "../components/admin/book/assign-all.tsx";
import { formIds, formText, licenceTermsInput } from "../components/admin/book/form-input.ts";
import { useActionCall } from "../components/admin/book/use-action-call.ts";
import { type BookOption, BookPicker, PICKER_LIST } from "../components/admin/book-picker.tsx";
import { type LicenceTerms, LicenceTermsFields, termsFields } from "../components/admin/licence-terms.tsx";
import { SchoolPicker } from "../components/admin/school-picker.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { errorText } from "../lib/error-text.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-assign-book";

export const meta: Route.MetaFunction = () => [{ title: "Assign Book · Lectern Admin" }];

/** The picker's first list (no search yet), painted with the page, and how many schools "assign to all" reaches. */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(appContext).db;
  const [{ books }, schoolCount] = await Promise.all([listAdminBooks(db, PICKER_LIST), countSchools(db)]);
  return { books, schoolCount, defaultTerms: defaultLicenceTerms(dayOf(Date.now())) };
}

/** Assign the book to the schools picked (intent "assign"), or to every school (intent "assign-all"). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, "intent");
  if (intent === "assign") {
    const outcome = await runCommand({ context, request }, grantAccessCommand, {
      schoolIds: formIds(form, "schoolIds"),
      bookIds: formIds(form, "bookId"),
      ...licenceTermsInput(form),
    });
    return reply(outcome, { intent }, ({ created }) => ({ intent, created }));
  }
  if (intent === "assign-all") {
    const outcome = await runCommand({ context, request }, assignToAllSchoolsCommand, { id: formText(form, "bookId") });
    return reply(outcome, { intent }, ({ assigned }) => ({ intent, assigned }));
  }
  return reply(failure("invalid", "Unknown action"), { intent: null });
}

/** One book to many schools, or to all of them (after a confirmation). Assigning twice changes nothing. */
export default function AdminAssignBook({ loaderData, actionData }: Route.ComponentProps) {
  const [book, setBook] = useState<BookOption | null>(null);
  const [terms, setTerms] = useState<LicenceTerms>(loaderData.defaultTerms);
  const assign = useActionCall<typeof action>();
  // The last assign's refusal, whose term (an end before the start) the terms' fields mark.
  const [refused, setRefused] = useState<unknown>(null);
  // The picker posts through a fetcher: its answer stands until the next assign-all's.
  const [picked, setPicked] = useState<{ text: string; after: typeof actionData } | null>(null);
  const message =
    picked && picked.after === actionData
      ? { text: picked.text, tone: "success" as const }
      : actionData && "error" in actionData
        ? { text: actionData.error }
        : actionData && "assigned" in actionData
          ? { text: `Assigned to every school (${actionData.assigned} new).`, tone: "success" as const }
          : null;
  return (
    <div className="max-w-4xl space-y-6">
      <AdminPageHeader title="Assign Book" description="Pick one book, then the schools that should have it." />
      <section className={cardClasses} aria-labelledby="step-book">
        <h2 id="step-book" className="mb-3 font-semibold">
          1. Book {book && <span className="font-normal text-slate-600 dark:text-slate-400">: {book.title}</span>}
        </h2>
        <BookPicker single initialBooks={loaderData.books} picked={new Set(book ? [book.id] : [])} onToggle={(b) => setBook(b)} />
      </section>
      {book && (
        <section className={cardClasses} aria-labelledby="step-schools">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
            <h2 id="step-schools" className="font-semibold">
              2. Schools
            </h2>
            <AssignToAllSchools book={book} schoolCount={loaderData.schoolCount} sendBookId />
          </div>
          <div className="mb-4">
            <LicenceTermsFields value={terms} onChange={setTerms} refused={refused} />
          </div>
          <SchoolPicker
            actionLabel="Assign"
            onPick={async (schoolIds) => {
              const answer = await assign.submit({
                intent: "assign",
                schoolIds: schoolIds.join(","),
                bookId: book.id,
                ...termsFields(terms),
              });
              const error = errorText(answer);
              setRefused(error ? answer : null);
              if (error) throw new Error(error);
              const created = answer && "created" in answer ? answer.created : 0;
              setPicked({
                text: `"${book.title}" assigned to ${schoolIds.length} school(s) (${created} new).`,
                after: actionData,
              });
            }}
          />
        </section>
      )}
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}
