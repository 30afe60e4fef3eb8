/**
 * Where a school's exports are kept (docs/decisions/0044): in R2, no D1 table. Each export is two
 * objects under the school's prefix, its status (JSON, also in the object's custom metadata so one
 * listing reads every status without a GET each) and, once built, its ZIP:
 *   exports/school-{schoolId}/{exportId}.json
 *   exports/school-{schoolId}/{exportId}.zip
 * An export is kept EXPORT_KEEP_MS after it was asked for, then the sweep removes both.
 */
import { z } from "zod";
import { log } from "../kernel/log.ts";
import { deletePrefix } from "../page-images/page-keys.ts";

/** How long an export is downloadable (and kept at all): a day. */
export const EXPORT_KEEP_MS = 24 * 3600_000;
/** A job whose status has not moved for this long is taken for lost (a restart) and sent again. */
export const EXPORT_STALE_MS = 3 * 60_000;
/** How many builds an export gets before it is marked failed. */
export const EXPORT_MAX_ATTEMPTS = 3;

export const EXPORTS_PREFIX = "exports/";
export const schoolPrefix = (schoolId: number) => `${EXPORTS_PREFIX}school-${schoolId}/`;
export const statusKey = (schoolId: number, exportId: string) => `${schoolPrefix(schoolId)}${exportId}.json`;
export const zipKey = (schoolId: number, exportId: string) => `${schoolPrefix(schoolId)}${exportId}.zip`;

export const ExportIdSchema = z.uuid("Export not found");

export const ExportStatusSchema = z.object({
  id: ExportIdSchema,
  schoolId: z.number().int().positive(),
  slug: z.string(),
  state: z.enum(["queued", "building", "ready", "failed"]),
  /** Who asked: an admin's e-mail, or a coordinator's marked "(coordinator)", as the audit log names them. */
  requestedBy: z.string(),
  requestedAt: z.number(),
  updatedAt: z.number(),
  attempts: z.number().int().min(0),
  /** What the build is on and how many rows it has written, for the screen's "Preparing…". */
  step: z.string().nullable(),
  rows: z.number().int().min(0),
  /** The ZIP's size once ready. */
  size: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type ExportStatus = z.infer<typeof ExportStatusSchema>;

/** What the screens show of an export: its status and until when it can be downloaded. */
export type ExportView = ExportStatus & { expiresAt: number };

export const viewOf = (status: ExportStatus): ExportView => ({ ...status, expiresAt: status.requestedAt + EXPORT_KEEP_MS });

export async function writeStatus(bucket: R2Bucket, status: ExportStatus): Promise<void> {
  const json = JSON.stringify(status);
  await bucket.put(statusKey(status.schoolId, status.id), json, {
    httpMetadata: { contentType: "application/json" },
    customMetadata: { status: json },
  });
}

/** A status as stored, or null (missing, or not one of ours). */
function parseStatus(json: string | undefined): ExportStatus | null {
  if (!json) return null;
  try {
    const parsed = ExportStatusSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function readStatus(bucket: R2Bucket, schoolId: number, exportId: string): Promise<ExportStatus | null> {
  const object = await bucket.get(statusKey(schoolId, exportId));
  return object ? parseStatus(await object.text()) : null;
}

/** Every status under `prefix` (a school's, or all exports'), read from the listing's metadata alone. */
export async function listStatuses(bucket: R2Bucket, prefix: string): Promise<ExportStatus[]> {
  const statuses: ExportStatus[] = [];
  let cursor: string | undefined;
  do {
    const listing = await bucket.list({ prefix, cursor, include: ["customMetadata"] });
    for (const object of listing.objects) {
      if (!object.key.endsWith(".json")) continue;
      const status = parseStatus(object.customMetadata?.status);
      if (status) statuses.push(status);
    }
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return statuses;
}

/** The school's exports still kept, newest first. */
export async function schoolExports(bucket: R2Bucket, schoolId: number, now = Date.now()): Promise<ExportView[]> {
  const statuses = await listStatuses(bucket, schoolPrefix(schoolId));
  return statuses
    .filter((status) => status.requestedAt + EXPORT_KEEP_MS > now)
    .sort((a, b) => b.requestedAt - a.requestedAt)
    .map(viewOf);
}

/**
 * schoolExports for a page that shows other things too (the school page, My school): when R2 cannot
 * be read the section shows no exports rather than the page failing; asking for one says why.
 */
export async function schoolExportsForPage(bucket: R2Bucket, schoolId: number): Promise<ExportView[]> {
  try {
    return await schoolExports(bucket, schoolId);
  } catch (error) {
    log.warn("Exports not listed", { schoolId, error });
    return [];
  }
}

export const inProgress = (status: ExportStatus) => status.state === "queued" || status.state === "building";

/**
 * Every export of the school removed, ZIPs and statuses (its ZIPs hold the teachers' names and
 * e-mails): for an erasure of the school's personal data (docs/decisions/0045), which must not leave
 * a copy behind. Answers how many objects went.
 */
export function removeSchoolExports(bucket: R2Bucket, schoolId: number): Promise<number> {
  return deletePrefix(bucket, schoolPrefix(schoolId));
}
