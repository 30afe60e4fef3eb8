import { data } from "react-router";
import { licenceEndedMessage } from "#shared/rules/licence.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { toTeacherBook } from "../../workers/reading/library.ts";
import { lookUpSchoolBook } from "../../workers/reading/school-book.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { teacherContext } from "./guards/teacher.server.ts";

type Args = {
  context: { get: typeof import("react-router").RouterContextProvider.prototype.get };
  params: Record<string, string | undefined>;
};

/**
 * What a teacher's page of a book throws when the school's licence for it ended: 403, the day it
 * ended and the school's own address (read by app/components/school/licence-ended.tsx).
 */
export function licenceEnded(endsOn: string, schoolEmail: string | null | undefined) {
  return data({ reason: "licence-ended" as const, error: licenceEndedMessage(endsOn), schoolEmail: schoolEmail ?? "" }, { status: 403 });
}

/**
 * The school's book named by the URL, or a 404 whose `reason` says which: no book has this id
 * ("not-found"), or it is a book the school was not given ("not-available"). The spec tells the
 * two apart on /books/{id} only; with `tellWhy: false` (the dashboard's book page, where the spec
 * has 'Book Not Found' alone) every 404 says "not-found".
 */
export async function loadSchoolBook({ context, params }: Args, { param = "bookId", tellWhy = true } = {}) {
  const { school, basePath } = context.get(teacherContext);
  const bookId = parseId(params[param]);
  if (!bookId) throw data({ reason: "not-found" as const }, { status: 404 });
  const { db, tenant } = context.get(appContext);
  const found = await lookUpSchoolBook(db, school.id, bookId);
  // A licence that ended is said so, on either page, with whom to ask (docs/decisions/0028).
  if (found.reason === "licence-ended") throw licenceEnded(found.endsOn, tenant.school?.email);
  if (!found.book) throw data({ reason: tellWhy ? found.reason : ("not-found" as const) }, { status: 404 });
  return { book: toTeacherBook({ ...found.book, licenceEndsOn: found.endsOn }), basePath };
}
