// The browser build everywhere, the Worker included (app/lib/papaparse-browser.d.ts says why).
import Papa from "papaparse/papaparse.min.js";

// CSV for the whole app (docs/decisions/0026): papaparse reads and writes the format (RFC 4180
// quoting); this module keeps our rules around it, the same for the browser (the school import
// reads its file there) and the Worker (the report and audit-log exports):
// - reading: a leading byte-order mark ignored, any mix of CRLF, LF and CR ends a record, header
//   names and cells trimmed, empty lines skipped but still counted in the row numbers, and a file
//   whose quotes do not pair up refused with the row where that starts;
// - writing: a byte-order mark, CRLF after every line, and cells a spreadsheet would run as a
//   formula neutralised with a leading apostrophe.

/** Starts every export, so spreadsheets read the file as UTF-8. */
export const CSV_BOM = "\uFEFF";

/** A file whose quoted cells do not close where they should; `row` as a spreadsheet numbers rows. */
export class CsvFormatError extends Error {
  constructor(readonly row: number) {
    super(
      `Row ${row} of the file has a quoted cell that is not closed properly: a cell that starts with " must end with ", and a " inside it is written twice.`,
    );
    this.name = "CsvFormatError";
  }
}

/**
 * Parses CSV text into rows of objects keyed by the header row. Header names and cells are
 * trimmed; empty lines are skipped; a leading byte-order mark is ignored. Throws CsvFormatError
 * when the quotes do not pair up.
 */
export function parseCsv(text: string): Record<string, string>[] {
  return parseCsvRows(text).rows;
}

/**
 * parseCsv's rows with each one's row number as a spreadsheet shows the file: the header's row is
 * 1 (when nothing is above it), skipped empty lines still count, and a record whose quoted field
 * holds line breaks is one row.
 */
export function parseCsvRows(text: string): { rows: Record<string, string>[]; rowNumbers: number[] } {
  // papaparse takes one line ending per file (guessed from the first one it sees), so a file that
  // mixes them would run records together: every CRLF or CR becomes LF first, a line break inside a
  // quoted cell included (such a cell reads with LF breaks). papaparse would drop the BOM too.
  const input = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const { data, errors } = Papa.parse<string[]>(input, {
    delimiter: ",",
    newline: "\n",
    quoteChar: '"',
    escapeChar: '"',
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
  });
  // papaparse reads on past a malformed quote (into the next rows) and only reports it: refuse the file.
  const quoteError = errors.find((error) => error.type === "Quotes");
  if (quoteError) throw new CsvFormatError((quoteError.row ?? 0) + 1);
  // Every record is one spreadsheet row, empty lines included ([""]), so its index gives its number.
  const [header, ...rows] = data
    .map((cells, i) => ({ cells, number: i + 1 }))
    .filter((record) => record.cells.some((cell) => cell.trim() !== ""));
  if (!header) return { rows: [], rowNumbers: [] };
  const keys = header.cells.map((h) => h.trim());
  return {
    rows: rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, (row.cells[i] ?? "").trim()]))),
    rowNumbers: rows.map((row) => row.number),
  };
}

export type CsvValue = string | number | boolean | null | undefined;

export type CsvColumns<Row> = ReadonlyArray<readonly [header: string, cell: (row: Row) => CsvValue]>;

// What a spreadsheet may run as a formula: = + - @ first, or a tab or carriage return that some strip first.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell's value with a text a spreadsheet would read as a formula given a leading ' so it stays
 * text. Numbers stay as they are (a negative number is data, not a formula). papaparse's own
 * `escapeFormulae` is not used: it also quotes every such cell, and its default pattern
 * (/^[=+\-@\t\r].*$/) misses a formula followed by a line break.
 */
function neutralised(value: CsvValue): string | number {
  if (typeof value === "number") return value;
  const text = value === null || value === undefined ? "" : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const WRITE: Papa.UnparseConfig = { delimiter: ",", newline: "\r\n", quoteChar: '"', escapeChar: '"', quotes: false, header: false };

/** One cell as it is written: neutralised, then quoted when it holds a quote, comma, line break (or starts or ends with a space). */
export function csvCell(value: CsvValue): string {
  return Papa.unparse([[neutralised(value)]], WRITE);
}

/** Lines of cells, each line ending in CRLF (no byte-order mark: for the header, or a streamed page of rows). */
export function csvLines(lines: ReadonlyArray<ReadonlyArray<CsvValue>>): string {
  return lines.length
    ? `${Papa.unparse(
        lines.map((cells) => cells.map(neutralised)),
        WRITE,
      )}\r\n`
    : "";
}

/** The whole file: byte-order mark, header row, one line per row. */
export function toCsv<Row>(columns: CsvColumns<Row>, rows: readonly Row[]): string {
  return `${CSV_BOM}${csvLines([columns.map(([header]) => header), ...rows.map((row) => columns.map(([, cell]) => cell(row)))])}`;
}

export const SCHOOL_CSV_COLUMNS = [
  "schoolName",
  "slug",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "zipCode",
  "email",
  "principal",
  "teacherLimit",
];

export function schoolCsvTemplate(): string {
  return `${SCHOOL_CSV_COLUMNS.join(",")}\r\n"Jefferson Middle School",jefferson-middle,"200 Oak Street",,,Madison,WI,53703,office@jefferson.example.org,"Dr. Lee Park",30\r\n`;
}

/**
 * A CSV file an import page was given, read in the browser: its rows and their row numbers, or
 * what is wrong with it (quotes that do not pair up, no rows, more than `maxRows` of them).
 */
export async function readCsvFile(
  file: File,
  maxRows: number,
  noun: string,
): Promise<{ ok: true; file: { rows: Record<string, string>[]; rowNumbers: number[] } } | { ok: false; message: string }> {
  let parsed: ReturnType<typeof parseCsvRows>;
  try {
    parsed = parseCsvRows(await file.text());
  } catch (error) {
    if (error instanceof CsvFormatError) return { ok: false, message: error.message };
    throw error;
  }
  const count = parsed.rows.length;
  if (count === 0) return { ok: false, message: "The file has no rows under its header." };
  if (count > maxRows) return { ok: false, message: `At most ${maxRows.toLocaleString("en-US")} ${noun} per file; this one has ${count}.` };
  return { ok: true, file: parsed };
}
