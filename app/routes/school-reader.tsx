import { data, isRouteErrorResponse, useParams, useRouteError } from "react-router";
import { appContext } from "../../workers/kernel/context.ts";
import { listPages, readingState, readySet } from "../../workers/page-images/page-reading.ts";
import { findProgress } from "../../workers/reading/progress.ts";
import { lookUpSchoolBook } from "../../workers/reading/school-book.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { ReaderError, ReaderLicenceEnded } from "../components/reader/reader-error.tsx";
import { PAGE_READER_ID, TeacherReader, type TeacherReaderProps } from "../components/reader/teacher-reader.tsx";
import { licenceEndedOf } from "../components/school/licence-ended.tsx";
import { FAILED_TEXT, isOfflineError, OFFLINE_TEXT, OFFLINE_TITLE } from "../components/school/school-page-error.tsx";
import { requireRole } from "../lib/guards/role.server.ts";
import type { PageScripts, PageScriptsHandle } from "../lib/page-scripts.ts";
import { licenceEnded } from "../lib/school-book.server.ts";
import type { Route } from "./+types/school-reader";

const BACK_LABEL = "Back to Dashboard";
const isReaderData = (data: unknown): data is TeacherReaderProps =>
  typeof data === "object" && data !== null && "bookId" in data && "preparing" in data;

/**
 * The page hydrates only the reader's island, ready or still being prepared. Its error screens
 * are a message and a link, and run no script at all (docs/decisions/0010).
 */
export const handle: PageScriptsHandle = {
  scripts(data): PageScripts {
    return isReaderData(data) ? { island: "page-reader", props: data } : "none";
  },
};

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title ?? "Reader"} · Lectern` }];

type ReaderFailure = { message: string; backHref: string };

function fail(status: number, failure: ReaderFailure): never {
  throw data(failure, { status });
}

export async function loader(args: Route.LoaderArgs): Promise<TeacherReaderProps> {
  const { teacher, school, basePath } = requireRole("teacher", args);
  const backHref = `${basePath}/dashboard`;
  const bookId = parseId(args.params.bookId);
  if (!bookId) fail(404, { message: "No book ID provided", backHref });
  const { db, env, tenant } = args.context.get(appContext);
  const found = await lookUpSchoolBook(db, school.id, bookId);
  // An ended licence is said so, as on the book's page (docs/decisions/0028), not as a book that is not there.
  if (found.reason === "licence-ended") throw licenceEnded(found.endsOn, tenant.school?.email);
  const { book } = found;
  if (!book) fail(404, { message: "Failed to load book details", backHref });
  // A PDF uploaded but not yet made into pages is not "no PDF": the reader says it is being prepared.
  const [state, progress, set] = await Promise.all([
    readingState(db, book),
    findProgress(db, env, { schoolId: school.id, teacherId: teacher.id }, book.id),
    readySet(db, book),
  ]);
  if (state === "no-pdf") fail(404, { message: "This book does not have a PDF file available", backHref });
  const page = progress ?? 1;
  return {
    bookId: book.id,
    title: book.title,
    page: book.pageCount ? Math.min(page, book.pageCount) : page,
    backHref,
    backLabel: BACK_LABEL,
    // As the teacher guard's redirect: the school's login, then back to this book.
    loginHref: `${basePath || "/"}?redirectTo=${encodeURIComponent(new URL(args.request.url).pathname.replace(/\.data$/, ""))}`,
    // Until the server has made the book's page images there is nothing to show yet.
    preparing: state === "preparing",
    // The page list rides in the HTML, so the reader asks for no /pages and its first page image
    // can load beside the JavaScript (docs/decisions/0013).
    list: set ? await listPages(db, set) : null,
  };
}

export default function SchoolReader({ loaderData }: Route.ComponentProps) {
  return (
    <div id={PAGE_READER_ID}>
      <TeacherReader {...loaderData} />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const backHref = `${slug ? `/schools/${slug}` : ""}/dashboard`;
  const ended = licenceEndedOf(error);
  if (ended) return <ReaderLicenceEnded ended={ended} backHref={backHref} backLabel={BACK_LABEL} />;
  if (isRouteErrorResponse(error) && (error.data as ReaderFailure | undefined)?.message) {
    const failure = error.data as ReaderFailure;
    return <ReaderError message={failure.message} backHref={failure.backHref} backLabel={BACK_LABEL} />;
  }
  // Anything else (the connection dropped on the way here, a failure) stays in the school: back to its dashboard.
  const message = isOfflineError(error) ? `${OFFLINE_TITLE}. ${OFFLINE_TEXT}` : FAILED_TEXT;
  return <ReaderError message={message} backHref={backHref} backLabel={BACK_LABEL} />;
}
