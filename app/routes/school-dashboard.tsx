import { useRouteError } from "react-router";
import { coverPath } from "#shared/rules/book-category.ts";
import { readShelfQuery } from "#shared/rules/shelf-query.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { toLibraryBook } from "../../workers/reading/library.ts";
import { dashboardState } from "../../workers/reading/progress.ts";
import { dashboardShelf } from "../../workers/reading/shelf-cache.ts";
import { LateKeptBooks } from "../components/offline/late-kept-books.tsx";
import { ContinueReading } from "../components/school/continue-reading.tsx";
import { LibraryView } from "../components/school/library-view.tsx";
import { SchoolPageError, useSchoolBasePath } from "../components/school/school-page-error.tsx";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import type { Route } from "./+types/school-dashboard";

/**
 * Books painted by the server: the first screen and more on a laptop or a 1080p screen (4 rows of 6
 * at most), so the scroll's next page (SHELF_PAGE) is only asked for once the teacher scrolls. The
 * grid is most of the page's render time: 48 cards served the 1,000-book dashboard at about 8% of
 * /api/health's rate, 24 at about 12% (docs/decisions/0018).
 */
const PAGE = 24;

export const meta: Route.MetaFunction = () => [{ title: "Books Library · Lectern" }];

/** The list the URL asks for (`?subject=&grade=&sort=&q=&mine=1`), filtered and sorted in SQL: the first HTML already shows it. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { school, teacher, basePath } = context.get(teacherContext);
  const { db, env } = context.get(appContext);
  const query = readShelfQuery(new URL(request.url).searchParams);
  // What the teacher read in the last minutes is in the school's object until its next flush; its
  // catalogue version says whether this isolate's copy of the school's shelf is still the shelf.
  const { unflushed, catalogueVersion } = await dashboardState(env, { schoolId: school.id, teacherId: teacher.id });
  const shelf = await dashboardShelf(db, { id: school.id, catalogueVersion }, teacher.id, PAGE, query, unflushed);
  const continueReading = shelf.reading.map((r) => ({
    bookId: r.bookId,
    title: r.title,
    page: r.page,
    pageCount: r.pageCount,
    thumbnailPath: coverPath({ id: r.bookId, coverKey: r.coverKey, updatedAt: r.updatedAt, createdAt: r.createdAt }),
  }));
  return {
    firstBooks: shelf.firstBooks.map(toLibraryBook),
    total: shelf.total,
    groups: shelf.groups,
    query,
    continueReading,
    slug: school.slug,
    basePath,
  };
}

export default function SchoolDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <LibraryView
      data={loaderData}
      continueReading={
        <>
          <LateKeptBooks basePath={loaderData.basePath} />
          <ContinueReading entries={loaderData.continueReading} basePath={loaderData.basePath} />
        </>
      }
    />
  );
}

/** 'Unable to load books' (the spec's error state), saying when the teacher is offline, with 'Try Again'. */
export function ErrorBoundary() {
  const error = useRouteError();
  return <SchoolPageError error={error} basePath={useSchoolBasePath()} title="Unable to load books" />;
}
