/**
 * Parses CSV text (RFC 4180: quoted fields, doubled quotes, commas and line breaks inside quotes,
 * CRLF or LF) into rows of objects keyed by the header row. Header names are trimmed; empty lines
 * are skipped; a leading byte-order mark is ignored.
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
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  const input = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < input.length; i++) {
    const char = input[i]!;
    if (quoted) {
      if (char === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === "") quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && input[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += char;
  }
  if (field !== "" || record.length) {
    record.push(field);
    records.push(record);
  }
  const [header, ...rows] = records
    .map((cells, i) => ({ cells, number: i + 1 }))
    .filter((record) => record.cells.some((cell) => cell.trim() !== ""));
  if (!header) return { rows: [], rowNumbers: [] };
  const keys = header.cells.map((h) => h.trim());
  return {
    rows: rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, (row.cells[i] ?? "").trim()]))),
    rowNumbers: rows.map((row) => row.number),
  };
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
