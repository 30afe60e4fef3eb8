import { useState } from "react";
import { data, isRouteErrorResponse, redirect, useRevalidator, useRouteError } from "react-router";
import { dayOf, defaultLicenceTerms } from "#shared/rules/licence.ts";
import {
  assignToAllSchoolsCommand,
  deleteBookCommand,
  grantAccessCommand,
  revokeAccessCommand,
  updateBookCommand,
} from "../../workers/books/commands.ts";
import { getAdminBookPage } from "../../workers/books/detail.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { licenceSeatUse } from "../../workers/licences/seat-use.ts";
import { refusalOfRemovedBook } from "../../workers/page-images/preparation-status.ts";
import { bookReport } from "../../workers/reports/detail.ts";
import { lastDays, rangeChoice } from "../../workers/reports/range.ts";
import { countSchools } from "../../workers/schools/list.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { AssignedSchools } from "../components/admin/book/assigned-schools.tsx";
import { DeleteBook } from "../components/admin/book/delete-book.tsx";
import { EditBook } from "../components/admin/book/edit-book.tsx";
import { bookUpdateInput, formIds, formText, licenceTermsInput } from "../components/admin/book/form-input.ts";
import { AdminBookFiles } from "../components/admin/book-files.tsx";
import { AdminBookPages } from "../components/admin/book-pages.tsx";
import { BookUsage } from "../components/admin/usage/book-usage.tsx";
import { SeatUse } from "../components/admin/usage/seat-use.tsx";
import { BookCover } from "../components/ui/book-cover.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-book";

export const meta: Route.MetaFunction = () => [{ title: "Book · Lectern Admin" }];

const BOOK_NOT_FOUND = "Book not found";
/** The most schools the book page's seat table lists. */
const SEAT_ROWS = 100;

/** The book, its schools and pages, and how many schools there are (what "assign to all" reaches). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const db = context.get(appContext).db;
  const id = parseId(params.id);
  const days = rangeChoice(new URL(request.url).searchParams.get("range"));
  const [found, schoolCount] = await Promise.all([id ? getAdminBookPage(db, id) : null, countSchools(db)]);
  if (!found) {
    // A book added with a PDF that was refused is gone: its page says why (the platform may refuse it
    // before the admin's browser arrives here from Add Books).
    const refusal = id ? await refusalOfRemovedBook(db, id) : null;
    if (refusal) throw data({ error: `This book was not added: ${refusal}`, removed: true }, { status: 404 });
    throw data(BOOK_NOT_FOUND, { status: 404 });
  }
  const range = lastDays(days);
  const [usage, seats] = await Promise.all([
    bookReport(db, { id: found.book.id, pageCount: found.book.pageCount }, range),
    // The licences that turned teachers away first; the Licences page lists every one.
    licenceSeatUse(db, { bookId: found.book.id }, range, SEAT_ROWS),
  ]);
  return {
    book: found.book,
    pages: found.pages,
    schoolCount,
    usage: { days, report: usage },
    seats: { range, uses: seats },
    defaultTerms: defaultLicenceTerms(dayOf(Date.now())),
  };
}

type Intent = "update" | "unassign" | "assign" | "assign-all" | "delete";
const INTENTS: readonly string[] = ["update", "unassign", "assign", "assign-all", "delete"] satisfies Intent[];

/** The page's forms: edit the details, assign and unassign schools, delete the book. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, "intent");
  if (!INTENTS.includes(intent)) return reply(failure("invalid", "Unknown action"), { intent: null });
  const id = parseId(params.id);
  switch (intent as Intent) {
    case "update": {
      const outcome = await runCommand({ context, request }, updateBookCommand, { ...bookUpdateInput(form), id: params.id });
      return reply(outcome, { intent: "update" as const }, () => ({ intent: "update" as const, saved: true }));
    }
    case "unassign": {
      const outcome = await runCommand({ context, request }, revokeAccessCommand, {
        schoolId: formText(form, "schoolId"),
        bookId: params.id,
      });
      return reply(outcome, { intent: "unassign" as const }, () => ({ intent: "unassign" as const, removed: true }));
    }
    case "assign": {
      const outcome = await runCommand({ context, request }, grantAccessCommand, {
        schoolIds: formIds(form, "schoolIds"),
        bookIds: id ? [id] : [],
        ...licenceTermsInput(form),
      });
      return reply(outcome, { intent: "assign" as const }, ({ created }) => ({ intent: "assign" as const, created }));
    }
    case "assign-all": {
      const outcome = await runCommand({ context, request }, assignToAllSchoolsCommand, { id: params.id });
      return reply(outcome, { intent: "assign-all" as const }, ({ assigned }) => ({ intent: "assign-all" as const, assigned }));
    }
    case "delete": {
      const outcome = await runCommand({ context, request }, deleteBookCommand, { id: params.id });
      if (!outcome.ok) return reply(outcome, { intent: "delete" as const });
      throw redirect("/admin/books");
    }
  }
}

type BookActionData = Route.ComponentProps["actionData"];

/** The message above the details: what the last assign-all, unassign or delete said. */
function pageMessage(answer: BookActionData): { text: string; tone?: "success" } | null {
  if (!answer) return null;
  if ("error" in answer) return answer.intent === "update" ? null : { text: answer.error };
  if (answer.intent === "update") return { text: "Saved.", tone: "success" };
  if (answer.intent === "assign-all") return { text: `Assigned to ${answer.assigned} more school(s).`, tone: "success" };
  return null;
}

export default function AdminBook({ loaderData, actionData }: Route.ComponentProps) {
  const { book: b, pages, schoolCount, usage, seats } = loaderData;
  const revalidator = useRevalidator();
  const refresh = () => void revalidator.revalidate();
  // The picker posts through a fetcher: its answer stands until the next form's (or another book).
  const [assigned, setAssigned] = useState<{ bookId: number; count: number; after: BookActionData } | null>(null);
  const message =
    assigned && assigned.bookId === b.id && assigned.after === actionData
      ? { text: `Assigned to ${assigned.count} school(s).`, tone: "success" as const }
      : pageMessage(actionData);
  // Another book's page (from the search) starts afresh: its forms, files and pages panels.
  return (
    <div key={b.id} className="space-y-6">
      <AdminPageHeader
        title={b.title}
        description={[b.author1, b.author2].filter(Boolean).join(", ")}
        actions={
          <>
            {b.pdfState !== "none" && (
              <ButtonLink to={`/admin/pdf/${b.id}`} variant="secondary">
                Open in reader
              </ButtonLink>
            )}
            <ButtonLink to={`/admin/licences?bookId=${b.id}`} variant="secondary">
              Licences
            </ButtonLink>
            <DeleteBook title={b.title} schoolCount={b.schools.length} />
          </>
        }
      />
      {message && <MessageBox text={message.text} tone={message.tone} />}
      <div className={`${cardClasses} grid gap-6 md:grid-cols-[12rem_1fr]`}>
        <BookCover src={b.thumbnailPath} title={b.title} className="aspect-[2/3] w-48 rounded-lg shadow" />
        <EditBook book={b} answer={actionData} />
      </div>
      <section className={cardClasses} aria-labelledby="files-title">
        <h2 id="files-title" className="mb-3 font-semibold">
          Files
        </h2>
        <AdminBookFiles bookId={b.id} pdfState={b.pdfState} onChanged={refresh} />
        <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
          <AdminBookPages bookId={b.id} initial={pages} onChanged={refresh} />
        </div>
      </section>
      <AssignedSchools
        book={b}
        schools={b.schools}
        schoolCount={schoolCount}
        defaultTerms={loaderData.defaultTerms}
        onAssigned={(count) => setAssigned({ bookId: b.id, count, after: actionData })}
      />
      <BookUsage bookId={b.id} days={usage.days} report={usage.report} />
      <SeatUse uses={seats.uses} range={seats.range} by="school" scope={{ bookId: b.id }} />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const body: unknown = isRouteErrorResponse(error) ? error.data : null;
  const text =
    typeof body === "string" ? body : body && typeof body === "object" && "error" in body ? String(body.error) : "Failed to fetch book";
  if (body && typeof body === "object" && "removed" in body)
    return (
      <section aria-labelledby="pages-heading" className="mx-auto max-w-2xl space-y-3 py-8 text-sm">
        <h2 id="pages-heading" className="text-lg font-semibold">
          Pages for teachers
        </h2>
        <MessageBox text={text} />
        <ButtonLink to="/admin/books" variant="secondary">
          Back to the books
        </ButtonLink>
      </section>
    );
  return <p className="py-8 text-center text-red-700 dark:text-red-300">{text}</p>;
}
