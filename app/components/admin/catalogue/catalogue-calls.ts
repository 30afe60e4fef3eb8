// The import page's calls (workers/api/admin-catalogue.ts), typed from the routes, and the key its report is polled under.
import { api, call, type Ok } from "../../../lib/api-client.ts";

const bulk = api.api.books.bulk;
const readReport = (importId: string) => bulk[":importId"].$get({ param: { importId } });

export type CatalogueRows = { rows: Record<string, string>[]; rowNumbers: number[] };
export type CatalogueCheck = Ok<Awaited<ReturnType<typeof bulk.validate.$post>>>;
export type CreatedCatalogue = Ok<Awaited<ReturnType<typeof bulk.$post>>>;
export type CatalogueReport = Ok<Awaited<ReturnType<typeof readReport>>>;
export type ReportRow = CatalogueReport["rows"][number];

export const reportKey = (importId: string) => ["catalogue-report", importId] as const;

export const checkCatalogue = (file: CatalogueRows) => call(() => bulk.validate.$post({ json: file }), "Failed to check the rows");
export const createCatalogue = (file: CatalogueRows) => call(() => bulk.$post({ json: file }), "Failed to create the books");
export const fetchReport = (importId: string) => call(() => readReport(importId), "Failed to read the import's state");
