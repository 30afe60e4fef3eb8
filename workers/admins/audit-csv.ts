import { CSV_BOM, type CsvValue, csvLines } from "#shared/csv.ts";
import { dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import { type AuditEntry, auditEntriesAfter } from "./audit-log.ts";
import type { AuditFilter } from "./input.ts";

/** Rows per D1 query while exporting, and the most one export holds (the newest first). */
export const AUDIT_CSV_PAGE = 1000;
export const AUDIT_CSV_MAX_ROWS = 100_000;

const COLUMNS = ["When (UTC)", "Who", "Action", "What", "Target type", "Target id", "Before", "After"];

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

function cells(entry: AuditEntry): CsvValue[] {
  return [
    new Date(entry.at).toISOString(),
    entry.adminEmail,
    entry.action,
    entry.what,
    entry.entityType,
    entry.entityId,
    json(entry.before),
    json(entry.after),
  ];
}

/**
 * The filtered log as CSV (UTF-8 with a byte-order mark, so spreadsheets read it as UTF-8; a
 * header row; CRLF), newest first, streamed a page at a time by (at, id) so no export holds the
 * whole log in memory or needs an OFFSET scan.
 */
export function auditCsvStream(db: Db, filter: AuditFilter, limits = { page: AUDIT_CSV_PAGE, max: AUDIT_CSV_MAX_ROWS }) {
  const encoder = new TextEncoder();
  let after: { at: number; id: number } | null = null;
  let sent = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${CSV_BOM}${csvLines([COLUMNS])}`));
        return;
      }
      const limit = Math.min(limits.page, limits.max - sent);
      const rows = limit > 0 ? await auditEntriesAfter(db, filter, after, limit) : [];
      if (rows.length) controller.enqueue(encoder.encode(csvLines(rows.map(cells))));
      sent += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < limit || sent >= limits.max) return controller.close();
      after = { at: last.at, id: last.id };
    },
  });
}

/** The export's file name: the day it was made, and the filter's dates when it has them. */
export function auditCsvFileName(filter: AuditFilter, now = Date.now()): string {
  const day = dayOf;
  const range =
    filter.fromMs !== undefined || filter.toMs !== undefined
      ? `-${filter.fromMs === undefined ? "start" : day(filter.fromMs)}-to-${filter.toMs === undefined ? "now" : day(filter.toMs - 1)}`
      : "";
  return `lectern-audit-log${range}-${day(now)}.csv`;
}
