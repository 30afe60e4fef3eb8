/**
 * Asking for a school's data export (docs/decisions/0044): an admin for any school, a coordinator
 * for their own (the school is the session's, never the request's). The request is audited (who,
 * when, which export) before the status is written and the job sent: an export never runs without
 * its record. One export of a school is prepared at a time.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { type AuditActor, auditEntry } from "../admins/audit.ts";
import { schools } from "../db/schema.ts";
import { adminCommand, teacherCommand } from "../kernel/command.ts";
import type { RequestContext } from "../kernel/context.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import { log } from "../kernel/log.ts";
import { coordinatorActor, findCoordinator, NOT_COORDINATOR } from "../teachers/coordinators.ts";
import { idFrom } from "../validation/schemas.ts";
import type { ExportMessage } from "./school-job.ts";
import { type ExportStatus, type ExportView, inProgress, listStatuses, schoolPrefix, viewOf, writeStatus } from "./store.ts";

export const EXPORT_REQUESTED = "school.export";
export const EXPORT_DOWNLOADED = "school.export-download";
export const EXPORT_BUSY = "An export of this school is already being prepared. It will be ready to download here in a few minutes.";
const UNAVAILABLE = "The export could not be started just now. Please try again in a minute.";

/** Starts an export of `school` for `actor`: audited, then the status written and the job sent. */
export async function startExport(
  context: Pick<RequestContext, "db" | "env">,
  school: { id: number; slug: string },
  actor: AuditActor,
  now = Date.now(),
): Promise<Outcome<ExportView>> {
  const { db, env } = context;
  try {
    const current = await listStatuses(env.BOOKS, schoolPrefix(school.id));
    if (current.some(inProgress)) return failure("conflict", EXPORT_BUSY);
    const status: ExportStatus = {
      id: crypto.randomUUID(),
      schoolId: school.id,
      slug: school.slug,
      state: "queued",
      requestedBy: actor.email,
      requestedAt: now,
      updatedAt: now,
      attempts: 0,
      step: null,
      rows: 0,
      size: null,
      error: null,
    };
    await auditEntry(
      db,
      actor,
      { action: EXPORT_REQUESTED, entityType: "school", entityId: school.id, after: { exportId: status.id } },
      now,
    );
    await writeStatus(env.BOOKS, status);
    await env.EXPORT_JOBS.send({ schoolId: school.id, exportId: status.id } satisfies ExportMessage);
    return done(viewOf(status));
  } catch (error) {
    log.error("Export not started", { schoolId: school.id, error });
    return failed({ kind: "unavailable", error: UNAVAILABLE, retryAfterSeconds: 60 });
  }
}

const NO_SCHOOL = failure("not-found", "School not found");

/** `POST /api/schools/:id/exports` and the admin's school page. */
export const requestSchoolExportCommand = adminCommand(z.object({ id: z.unknown() }), async (context, { id }) => {
  const schoolId = idFrom(id);
  if (!schoolId) return NO_SCHOOL;
  const [school] = await context.db.select({ id: schools.id, slug: schools.slug }).from(schools).where(eq(schools.id, schoolId));
  if (!school) return NO_SCHOOL;
  return startExport(context, school, context.actor);
});

/** `POST /api/schools/slug/{slug}/coordinator/exports` and My school: the coordinator's own school only. */
export const coordinatorExportCommand = teacherCommand(z.object({}), async (context) => {
  const coordinator = await findCoordinator(context.db, context.who);
  if (!coordinator) return failure("refused", NOT_COORDINATOR);
  const { school } = context.session;
  return startExport(context, { id: school.id, slug: school.slug }, coordinatorActor(coordinator.email));
});
