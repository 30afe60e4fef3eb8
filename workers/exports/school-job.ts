/**
 * A school's data export, built by the app Worker's queue consumer (docs/decisions/0044): the
 * request wrote a status and sent a message to `lectern-exports`; this builds the ZIP straight into
 * R2 through a multipart upload (one part of 5 MiB in memory at most), writing its progress into the
 * status as it goes. A throw leaves the status "building" and the queue delivers the message again;
 * after EXPORT_MAX_ATTEMPTS builds it is marked failed. A restart that lost the message is made good
 * by the minute cron (sweepExports), which sends again what has not moved for EXPORT_STALE_MS.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { schools } from "../db/schema.ts";
import { log } from "../kernel/log.ts";
import type { HotState } from "../school-object/objects.ts";
import { schoolObject } from "../school-object/objects.ts";
import { openArchive } from "./archive.ts";
import { writeNotes } from "./notes-files.ts";
import { r2MultipartSink } from "./r2-sink.ts";
import { schoolReadme } from "./readme.ts";
import {
  EXPORT_KEEP_MS,
  EXPORT_MAX_ATTEMPTS,
  EXPORT_STALE_MS,
  EXPORTS_PREFIX,
  ExportIdSchema,
  type ExportStatus,
  inProgress,
  listStatuses,
  readStatus,
  statusKey,
  writeStatus,
  zipKey,
} from "./store.ts";
import { licencesFile, type Progress, schoolFile, signInsFile, teachersFile } from "./tables.ts";
import { readingUsageFile, schoolUsageFile } from "./usage-files.ts";

export type ExportBindings = HotState & { DB: D1Database; BOOKS: R2Bucket; EXPORT_JOBS: Queue };

export const ExportMessageSchema = z.object({ schoolId: z.number().int().positive(), exportId: ExportIdSchema });
export type ExportMessage = z.infer<typeof ExportMessageSchema>;

/** How often, at most, the status's progress is written while a build runs (each is an R2 write). */
const PROGRESS_EVERY_MS = 2_000;
export const EXPORT_FAILED = "The export could not be prepared. Please ask for it again; if it fails again, contact the publisher.";

/** Builds the export the message names, unless it is already built, failed, or gone. */
export async function buildSchoolExport(env: ExportBindings, message: ExportMessage): Promise<void> {
  const { schoolId, exportId } = message;
  const found = await readStatus(env.BOOKS, schoolId, exportId);
  const started = Date.now();
  if (!found || !inProgress(found) || found.requestedAt + EXPORT_KEEP_MS <= started) return;
  const status: ExportStatus = { ...found, state: "building", attempts: found.attempts + 1, updatedAt: started, step: null, rows: 0 };
  await writeStatus(env.BOOKS, status);
  const db = getDb(env.DB);
  const [school] = await db.select({ name: schools.name, slug: schools.slug }).from(schools).where(eq(schools.id, schoolId));
  if (!school) {
    await writeStatus(env.BOOKS, { ...status, state: "failed", error: "The school no longer exists.", updatedAt: Date.now() });
    return;
  }
  // What the school's object holds unflushed goes to D1 first, so the usage is up to the minute.
  await schoolObject(env, schoolId)
    .flush(schoolId)
    .catch((error: unknown) => log.error("Usage not flushed for the export", { schoolId, error }));

  let written = Date.now();
  const progress: Progress = async (step, rows) => {
    status.step = step;
    status.rows += rows;
    if (Date.now() - written < PROGRESS_EVERY_MS) return;
    written = status.updatedAt = Date.now();
    await writeStatus(env.BOOKS, status);
  };
  const sink = await r2MultipartSink(env.BOOKS, zipKey(schoolId, exportId), {
    httpMetadata: { contentType: "application/zip" },
  });
  try {
    const archive = openArchive(sink, new Date(status.requestedAt));
    const scope = { schoolId };
    await archive.add("README.md", schoolReadme(school, status.requestedAt));
    await schoolFile(archive, db, schoolId);
    await licencesFile(archive, db, schoolId, progress);
    await teachersFile(archive, db, scope, "teachers.csv", progress);
    await signInsFile(archive, db, scope, progress);
    await readingUsageFile(archive, db, scope, progress);
    await schoolUsageFile(archive, db, schoolId, progress);
    await writeNotes(archive, db, env, scope, true, status.requestedAt, progress);
    await archive.finish();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  await writeStatus(env.BOOKS, { ...status, state: "ready", step: null, size: sink.size(), updatedAt: Date.now() });
  log.info("School export ready", { schoolId, exportId, bytes: sink.size(), rows: status.rows, ms: Date.now() - started });
}

/** The queue consumer: each message built once; a failure retried by the queue until the last attempt, then marked failed. */
export async function handleExportJobs(batch: MessageBatch<unknown>, env: ExportBindings): Promise<void> {
  for (const message of batch.messages) {
    const parsed = ExportMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      log.error("Export message refused", { body: message.body });
      message.ack();
      continue;
    }
    try {
      await buildSchoolExport(env, parsed.data);
      message.ack();
    } catch (error) {
      log.error("School export failed", { ...parsed.data, error });
      const status = await readStatus(env.BOOKS, parsed.data.schoolId, parsed.data.exportId).catch(() => null);
      if (status && status.attempts < EXPORT_MAX_ATTEMPTS) {
        message.retry({ delaySeconds: 10 });
        continue;
      }
      if (status) await writeStatus(env.BOOKS, { ...status, state: "failed", error: EXPORT_FAILED, updatedAt: Date.now() }).catch(() => {});
      message.ack();
    }
  }
}

/**
 * The minute cron: exports older than EXPORT_KEEP_MS removed (status and ZIP); a build whose status
 * has not moved for EXPORT_STALE_MS (a restart or a crash lost it) sent again, or marked failed
 * after its last attempt. One listing of the exports' statuses per run.
 */
export async function sweepExports(env: ExportBindings, now = Date.now()): Promise<{ removed: number; resent: number }> {
  let removed = 0;
  let resent = 0;
  for (const status of await listStatuses(env.BOOKS, EXPORTS_PREFIX)) {
    if (status.requestedAt + EXPORT_KEEP_MS <= now) {
      await env.BOOKS.delete([statusKey(status.schoolId, status.id), zipKey(status.schoolId, status.id)]);
      removed++;
    } else if (inProgress(status) && status.updatedAt + EXPORT_STALE_MS <= now) {
      if (status.attempts >= EXPORT_MAX_ATTEMPTS) {
        await writeStatus(env.BOOKS, { ...status, state: "failed", error: EXPORT_FAILED, updatedAt: now });
        continue;
      }
      // Touched first, so the next run does not send it again while this one waits in the queue.
      await writeStatus(env.BOOKS, { ...status, state: "queued", updatedAt: now });
      await env.EXPORT_JOBS.send({ schoolId: status.schoolId, exportId: status.id } satisfies ExportMessage);
      resent++;
    }
  }
  if (removed || resent) log.info("Exports swept", { removed, resent });
  return { removed, resent };
}
