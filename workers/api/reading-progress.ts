import { type Context, Hono } from "hono";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { saveProgressCommand } from "../reading/commands.ts";
import { findSchoolBook } from "../reading/library.ts";
import { findProgress } from "../reading/progress.ts";
import { parseId } from "../validation/schemas.ts";
import { NO_STORE } from "./refused.ts";

/** The book of the teacher's school named by the URL, or the answer refusing it. */
async function teacherBook(c: Context<TeacherApiEnv>) {
  const { db } = c.var.context;
  const session = c.var.teacher;
  const bookId = parseId(c.req.param("bookId"));
  const book = bookId ? await findSchoolBook(db, session.school.id, bookId) : null;
  if (!book) return { refusal: c.json({ error: "Book not found" }, 404) } as const;
  return { db, who: { schoolId: session.school.id, teacherId: session.teacher.id }, book } as const;
}

/**
 * Where each teacher is in each book: PUT by the reader (debounced, and a ping while active), GET to
 * resume. A PUT may carry `editedAt`, when the client settled on the page: a position saved offline
 * and sent later is kept only if later than the one held (bounded as shared/rules/offline-sync.ts says).
 */
export const readingProgressApi = new Hono<TeacherApiEnv>()
  .use(requireRole("teacher"))
  .get("/:bookId", async (c) => {
    const found = await teacherBook(c);
    if ("refusal" in found) return found.refusal;
    c.header("Cache-Control", "private, no-store");
    return c.json({ page: (await findProgress(found.db, c.env, found.who, found.book.id)) ?? 1 });
  })
  // 204 when kept; 200 `{ applied: false }` when a later position (another device's) is kept instead (docs/decisions/0051).
  .put(
    "/:bookId",
    runJson(saveProgressCommand, (c, { applied }) => (applied ? c.body(null, 204) : c.json({ applied: false as const }, 200, NO_STORE)), {
      params: ["bookId"],
    }),
  );
