import { data } from "react-router";
import { appContext } from "../../workers/http/context.ts";
import { findSchoolBook, toTeacherBook } from "../../workers/reading/library.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { teacherContext } from "./guards/teacher.server.ts";

type Args = {
  context: { get: typeof import("react-router").RouterContextProvider.prototype.get };
  params: Record<string, string | undefined>;
};

/** The school's book named by the URL, or a 404 that says only "not found / not available". */
export async function loadSchoolBook({ context, params }: Args, param = "bookId") {
  const { school, basePath } = context.get(teacherContext);
  const bookId = parseId(params[param]);
  if (!bookId) throw data({ reason: "not-found" as const }, { status: 404 });
  const book = await findSchoolBook(context.get(appContext).db, school.id, bookId);
  if (!book) throw data({ reason: "not-available" as const }, { status: 404 });
  return { book: toTeacherBook(book), basePath };
}
