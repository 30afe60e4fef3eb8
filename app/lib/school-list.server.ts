import type { Db } from "../../workers/db/client.ts";
import { ListQuerySchema, listSchools } from "../../workers/schools/list.ts";

const PAGE_SIZE = 25;

/** One page of schools by name, filtered by `?query=` and paged by `?page=` (a bad value falls back to the default). */
export async function schoolListPage(request: Request, db: Db) {
  const params = new URL(request.url).searchParams;
  const query = ListQuerySchema.shape.query.catch("").parse(params.get("query")?.slice(0, 200) ?? undefined);
  const page = ListQuerySchema.shape.page.catch(1).parse(params.get("page") ?? undefined);
  const { schools, total } = await listSchools(db, { query, page, pageSize: PAGE_SIZE, sort: "name", dir: "asc" });
  return { schools, total, page, pageSize: PAGE_SIZE, query };
}
export type SchoolListPage = Awaited<ReturnType<typeof schoolListPage>>;

/** The first schools by name, for a page's school select before the admin searches. */
export async function firstSchools(db: Db) {
  const { schools } = await listSchools(db, { query: "", page: 1, pageSize: 20, sort: "name", dir: "asc" });
  return schools;
}
