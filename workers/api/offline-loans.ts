/**
 * Offline loans (issue 45 items 3 and 6, docs/decisions/0050; THE SHARED CONTRACT, section 2):
 *   POST   /api/books/:id/offline           a teacher keeps the book offline: 201 { loan }, or 200 with this session's loan of it
 *   DELETE /api/books/:id/offline           returns it early: 204, its seat free at once
 *   POST   /api/books/:id/offline/reads     { loanId, reads: [{ n, at }] } pages read offline: { counted }
 *   GET    /api/teacher/offline             the contact check: { loans } of this session (401 when it is gone)
 *   GET    /api/schools/:id/offline-loans                     an admin: { loans } of the school
 *   POST   /api/schools/:id/offline-loans/:loanId/return      an admin's "Return now": 204 (audited)
 *   GET    /api/schools/slug/:slug/coordinator/offline-loans  the school's coordinator, the same
 *   POST   /api/schools/slug/:slug/coordinator/offline-loans/:loanId/return
 * Every answer, refusals too, is `private, no-store`: a loan's answer carries its key.
 */
import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { type AdminApiEnv, requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import type { AppEnv } from "../kernel/context.ts";
import { contactCheck, keepForOfflineCommand, reportOfflineReadsCommand, returnOwnLoanCommand } from "../loans/keep.ts";
import { coordinatorReturnLoanCommand, returnLoanCommand, schoolOfflineLoans } from "../loans/staff.ts";
import type { SessionLoan } from "../school-object/loans.ts";
import { coordinatorOnly } from "./coordinator.ts";
import { NO_STORE, refused } from "./refused.ts";
import { schoolList } from "./school-list.ts";

/** Whatever the route answered, no cache keeps it. */
const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", NO_STORE["Cache-Control"]);
});
const teacher = requireRole("teacher");
const noContent = (c: Context) => c.body(null, 204);
const loanAnswer = (c: Context<TeacherApiEnv>, value: { loan: SessionLoan; created: boolean }) =>
  c.json({ loan: value.loan }, value.created ? 201 : 200);

/** Mounted at /api/books (the teacher's loan of a book). */
export const offlineLoansApi = new Hono<TeacherApiEnv>()
  .use("/:id/offline", noStore)
  .use("/:id/offline/*", noStore)
  .post("/:id/offline", teacher, runJson(keepForOfflineCommand, loanAnswer, { params: ["id"], body: false }))
  .delete("/:id/offline", teacher, runJson(returnOwnLoanCommand, noContent, { params: ["id"], body: false }))
  .post(
    "/:id/offline/reads",
    teacher,
    runJson(reportOfflineReadsCommand, (c, value) => c.json(value), { params: ["id"] }),
  );

/** Mounted at /api/teacher. */
export const teacherOfflineApi = new Hono<TeacherApiEnv>().use("/offline", noStore).get("/offline", teacher, async (c) => {
  const loans = await contactCheck(c.var.context, c.var.teacher);
  return loans.ok ? c.json({ loans: loans.value }) : refused(c, loans.failure);
});

/** Mounted at /api/schools, after the schools routes. */
export const schoolOfflineLoansApi = new Hono<AdminApiEnv>()
  .use("/:id/offline-loans", noStore)
  .use("/:id/offline-loans/*", noStore)
  .get("/:id/offline-loans", requireRole("admin"), schoolList("loans", schoolOfflineLoans))
  .post(
    "/:id/offline-loans/:loanId/return",
    requireRole("admin"),
    runJson(returnLoanCommand, noContent, { params: ["id", "loanId"], body: false }),
  );

/** Mounted at /api/schools/slug/:slug/coordinator. */
export const coordinatorOfflineLoansApi = new Hono<TeacherApiEnv>()
  .use("/offline-loans", noStore)
  .use("/offline-loans/*", noStore)
  .get("/offline-loans", teacher, coordinatorOnly, async (c) => {
    const { db, env } = c.var.context;
    return c.json({ loans: (await schoolOfflineLoans(db, env, c.var.teacher.school.id)) ?? [] });
  })
  .post("/offline-loans/:loanId/return", teacher, runJson(coordinatorReturnLoanCommand, noContent, { params: ["loanId"], body: false }));
