import { CsvImportBodySchema } from "../validation/schemas.ts";
import type { SchoolInput } from "./input.ts";

// What a CSV import sends and gets back, and the checks between its rows (workers/schools/import.ts).

// One import is one D1 batch of one statement per row (plus a few audit rows); D1 allows 1,000
// queries per Worker invocation on paid plans, so a file is capped well below that.
export const MAX_IMPORT_ROWS = 900;

/** Rows the admin page parsed from the CSV file, keyed by the POST /api/schools field names. */
export const ImportBodySchema = CsvImportBodySchema(MAX_IMPORT_ROWS, `Import at most ${MAX_IMPORT_ROWS} schools at a time`);

export type ImportStatus = "new" | "duplicate" | "invalid";

export interface ImportRowResult {
  index: number;
  /** The row's number in the file, header included (the first row under the header is 2): what the preview and every message say. */
  row: number;
  status: ImportStatus;
  errors: string[];
  data: Record<string, unknown>;
  existingId?: number;
  generatedSlug?: string;
}

export interface ImportValidation {
  rows: ImportRowResult[];
  summary: Record<ImportStatus, number>;
}

/**
 * What each save action needs on top of the field checks: `bulk` wants every row to carry its
 * slug, `generate` fills missing slugs, `update` checks limits against the existing schools.
 */
export type ImportMode = "validate" | "bulk" | "generate" | "update";

export type Parsed = { index: number; input: SchoolInput; result: ImportRowResult };

/** "row 6", "rows 6 and 9", "rows 6, 9 and 12". */
function rowList(numbers: number[]): string {
  const last = numbers.at(-1);
  if (numbers.length === 1) return `row ${last}`;
  return `rows ${numbers.slice(0, -1).join(", ")} and ${last}`;
}
export const nameKey = (input: SchoolInput) => `${input.schoolName.toLowerCase()}|${input.zipCode}`;

/** The number the preview shows for the row at `index`: the client's, else the header's row 1 and one row per line. */
export function importRowNumber(index: number, rowNumbers: number[] | undefined): number {
  return rowNumbers?.[index] ?? index + 2;
}

/**
 * Marks rows sharing a key as invalid, each naming itself and the others by their row numbers:
 * "Row 7 has the same slug as row 6".
 */
export function flagInFileDuplicates<Row extends { result: { row: number; errors: string[]; status: string } }>(
  parsed: Row[],
  keyOf: (row: Row) => string | undefined,
  message: (row: number, others: string) => string,
) {
  const groups = new Map<string, Row[]>();
  for (const row of parsed) {
    const key = keyOf(row);
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const row of group) {
      const others = group.filter((other) => other !== row).map((other) => other.result.row);
      row.result.errors.push(message(row.result.row, rowList(others)));
      row.result.status = "invalid";
    }
  }
}
