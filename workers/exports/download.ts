/**
 * A school export's ZIP, for the people who may ask for one (docs/decisions/0044): the route has
 * checked who it is and names the school from the path (admin) or the session (coordinator); an
 * export of another school is not under this school's prefix, so it is not found. Each download is
 * audited, as the request was.
 */

import { eq } from "drizzle-orm";
import type { AuditActor } from "../admins/audit.ts";
import { auditEntry } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { schools } from "../db/schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { attachmentResponse } from "../reports/csv.ts";
import { EXPORT_DOWNLOADED } from "./commands.ts";
import { EXPORT_KEEP_MS, ExportIdSchema, type ExportView, readStatus, schoolExports, zipKey } from "./store.ts";

/** The school's exports still kept, newest first; null for a school that does not exist (the admin's 404). */
export async function listSchoolExports(db: Db, env: { BOOKS: R2Bucket }, schoolId: number): Promise<ExportView[] | null> {
  const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId));
  return school ? schoolExports(env.BOOKS, schoolId) : null;
}

const NOT_FOUND = failure("not-found", "This export does not exist or has been removed. Ask for a new one.");
const NOT_READY = "This export is still being prepared.";

export async function openExport(
  context: { db: Db; env: { BOOKS: R2Bucket } },
  schoolId: number,
  rawId: string,
  actor: AuditActor,
  now = Date.now(),
): Promise<Outcome<{ body: ReadableStream; size: number; fileName: string }>> {
  const id = ExportIdSchema.safeParse(rawId);
  if (!id.success) return NOT_FOUND;
  const status = await readStatus(context.env.BOOKS, schoolId, id.data);
  // Past its time it is gone, whether or not the sweep has removed it yet.
  if (!status || status.requestedAt + EXPORT_KEEP_MS <= now || status.state === "failed") return NOT_FOUND;
  if (status.state !== "ready") return { ok: false, failure: { kind: "conflict", error: NOT_READY, retryAfterSeconds: 5 } };
  const object = await context.env.BOOKS.get(zipKey(schoolId, id.data));
  if (!object) return NOT_FOUND;
  await auditEntry(
    context.db,
    actor,
    { action: EXPORT_DOWNLOADED, entityType: "school", entityId: schoolId, after: { exportId: id.data } },
    now,
  );
  const day = new Date(status.requestedAt).toISOString().slice(0, 10);
  return done({ body: object.body, size: object.size, fileName: `lectern-${status.slug}-data-${day}.zip` });
}

/** A ZIP download's response: an attachment no cache keeps. */
export const zipResponse = (body: ReadableStream, fileName: string, size?: number) =>
  attachmentResponse(body, fileName, "application/zip", size);
