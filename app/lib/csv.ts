/**
 * Parses CSV text (RFC 4180: quoted fields, doubled quotes, commas and line breaks inside quotes,
 * CRLF or LF) into rows of objects keyed by the header row. Header names are trimmed; empty lines
 * are skipped; a leading byte-order mark is ignored.
 */
export function parseCsv(text: string): Record<string, string>[] {
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
  const [header, ...rows] = records.filter((r) => r.some((cell) => cell.trim() !== ""));
  if (!header) return [];
  const keys = header.map((h) => h.trim());
  return rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, (row[i] ?? "").trim()])));
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
