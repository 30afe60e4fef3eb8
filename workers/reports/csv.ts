/** CSV for the exports (docs/decisions/0019): UTF-8 with a byte-order mark, a header row, CRLF (RFC 4180). */

/**
 * One CSV cell: a text a spreadsheet would read as a formula (starting with = + - @, or a tab or
 * carriage return that some strip first) gets a leading ' so it stays text; quotes, commas and
 * line breaks are quoted as RFC 4180 says. Numbers are written as they are (a negative number is
 * data, not a formula).
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (typeof value === "number") return String(value);
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export type CsvColumns<Row> = ReadonlyArray<readonly [header: string, cell: (row: Row) => string | number | boolean | null | undefined]>;

/** The whole file: byte-order mark, header row, one line per row. */
export function toCsv<Row>(columns: CsvColumns<Row>, rows: readonly Row[]): string {
  const line = (cells: ReadonlyArray<string | number | boolean | null | undefined>) => `${cells.map(csvCell).join(",")}\r\n`;
  return `\uFEFF${line(columns.map(([header]) => header))}${rows.map((row) => line(columns.map(([, cell]) => cell(row)))).join("")}`;
}

/** A CSV download's response. */
export function csvResponse(body: string, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
