// The school data export's list (docs/decisions/0044), read through the typed client while an
// export is being prepared: the admin's (by school id) or the coordinator's (by their school's slug).
import { api, call, type Ok } from "../../../lib/api-client.ts";

const adminList = (schoolId: number) => api.api.schools[":id"].exports.$get({ param: { id: String(schoolId) } });
const coordinatorList = (slug: string) => api.api.schools.slug[":slug"].coordinator.exports.$get({ param: { slug } });

/** One export as the server lists it. */
export type SchoolExport = Ok<Awaited<ReturnType<typeof adminList>>>["exports"][number];

const FALLBACK = "Could not check on the export. It is still being prepared; reload the page to see it.";

export const readAdminExports = (schoolId: number) => () => call(() => adminList(schoolId), FALLBACK);
export const readCoordinatorExports = (slug: string) => () => call(() => coordinatorList(slug), FALLBACK);

export const adminDownloadHref = (schoolId: number) => (exportId: string) =>
  `/api/schools/${schoolId}/exports/${encodeURIComponent(exportId)}/download`;
export const coordinatorDownloadHref = (slug: string) => (exportId: string) =>
  `/api/schools/slug/${encodeURIComponent(slug)}/coordinator/exports/${encodeURIComponent(exportId)}/download`;
