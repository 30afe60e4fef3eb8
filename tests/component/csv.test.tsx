import { describe, expect, it } from "vitest";
import {
  CSV_BOM,
  CsvFormatError,
  csvCell,
  csvLines,
  parseCsv,
  parseCsvRows,
  SCHOOL_CSV_COLUMNS,
  schoolCsvTemplate,
  toCsv,
} from "#shared/csv.ts";

describe("parseCsv", () => {
  it("reads quoted fields with commas, quotes and line breaks, CRLF and a BOM", () => {
    const text = '\uFEFFname, city ,note\r\n"Smith, Jones ""Academy""",Boston,"two\nlines"\r\n\r\nPlain,Salem,\n';
    expect(parseCsv(text)).toEqual([
      { name: 'Smith, Jones "Academy"', city: "Boston", note: "two\nlines" },
      { name: "Plain", city: "Salem", note: "" },
    ]);
  });

  it("fills missing trailing cells and ignores a file with only a header", () => {
    expect(parseCsv("a,b,c\n1")).toEqual([{ a: "1", b: "", c: "" }]);
    expect(parseCsv("a,b\n")).toEqual([]);
    expect(parseCsv("")).toEqual([]);
  });

  it("round-trips the template", () => {
    const [row] = parseCsv(schoolCsvTemplate());
    expect(Object.keys(row!)).toEqual(SCHOOL_CSV_COLUMNS);
    expect(row).toMatchObject({ schoolName: "Jefferson Middle School", slug: "jefferson-middle", zipCode: "53703", teacherLimit: "30" });
  });
});

describe("parseCsvRows", () => {
  it("numbers each row as a spreadsheet shows the file: header row 1, blank lines counted, a multi-line cell one row", () => {
    const text = 'name,note\r\nA,one\r\n\r\nB,"two\nlines"\r\nC,three\r\n';
    expect(parseCsvRows(text)).toEqual({
      rows: [
        { name: "A", note: "one" },
        { name: "B", note: "two\nlines" },
        { name: "C", note: "three" },
      ],
      rowNumbers: [2, 4, 5],
    });
    expect(parseCsvRows("\n\nname\nA\n").rowNumbers).toEqual([4]);
    expect(parseCsvRows("")).toEqual({ rows: [], rowNumbers: [] });
  });
});

describe("parseCsvRows on uploads", () => {
  it("counts a quoted cell's line breaks as one row, whatever the line ends, so the rows after it keep their numbers", () => {
    // CRLF between records, an LF and a CRLF inside quoted cells, then an LF and a lone CR ending records.
    const text = 'name,note\r\nA,"one\ntwo"\r\nB,"three\r\nfour\r\nfive"\r\n\r\nC,six\nD,seven\rE,eight';
    expect(parseCsvRows(text)).toEqual({
      rows: [
        { name: "A", note: "one\ntwo" },
        { name: "B", note: "three\nfour\nfive" },
        { name: "C", note: "six" },
        { name: "D", note: "seven" },
        { name: "E", note: "eight" },
      ],
      rowNumbers: [2, 3, 5, 6, 7],
    });
  });

  it("ignores the byte-order mark a spreadsheet writes at the start of an upload", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("name,city\r\nLincoln High,Salem\r\n")]);
    const uploaded = await new Blob([bytes]).text();
    expect(parseCsvRows(uploaded)).toEqual({ rows: [{ name: "Lincoln High", city: "Salem" }], rowNumbers: [2] });
    expect(Object.keys(parseCsv("\uFEFFname,city\nA,B")[0]!)).toEqual(["name", "city"]);
  });

  it("refuses a file whose quotes do not pair up, naming the row where that starts", () => {
    const unclosed = () => parseCsvRows('name,note\nA,one\n\nB,"never closed\nC,three\n');
    expect(unclosed).toThrow(CsvFormatError);
    expect(unclosed).toThrow(/^Row 4 of the file has a quoted cell that is not closed properly/);
    // Text after a closing quote would otherwise run the next rows into this cell.
    expect(() => parseCsvRows('name,note\nA,"one"x\nB,"two"\n')).toThrow(expect.objectContaining({ row: 2 }));
    // A quote inside an unquoted cell is just a character.
    expect(parseCsv('name,size\nPoster,24" x 36"\n')).toEqual([{ name: "Poster", size: '24" x 36"' }]);
  });
});

describe("writing CSV", () => {
  it("neutralises text a spreadsheet would run as a formula with a leading apostrophe, numbers left alone", () => {
    expect(["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", "=1\n+2", "a=b", "plain"].map(csvCell)).toEqual([
      "'=1+1",
      "'+SUM(A1)",
      "'-2+3",
      "'@cmd",
      "'\tx",
      '"\'\rx"',
      '"\'=1\n+2"',
      "a=b",
      "plain",
    ]);
    expect([-3, 1.5, true, null, undefined, ""].map(csvCell)).toEqual(["-3", "1.5", "true", "", "", ""]);
  });

  it("writes the byte-order mark, CRLF line ends and RFC 4180 quoting, and reads back what it wrote", () => {
    type Row = { name: string; note: string; count: number };
    const columns = [
      ["name", (row: Row) => row.name],
      ["note", (row: Row) => row.note],
      ["count", (row: Row) => row.count],
    ] as const;
    const rows: Row[] = [
      { name: 'Smith, Jones "Academy"', note: "two\r\nlines", count: -4 },
      { name: "Plain", note: "", count: 0 },
    ];
    const csv = toCsv(columns, rows);
    expect(csv).toBe(`${CSV_BOM}name,note,count\r\n"Smith, Jones ""Academy""","two\r\nlines",-4\r\nPlain,,0\r\n`);
    expect(parseCsvRows(csv)).toEqual({
      rows: [
        { name: 'Smith, Jones "Academy"', note: "two\nlines", count: "-4" },
        { name: "Plain", note: "", count: "0" },
      ],
      rowNumbers: [2, 3],
    });
    expect(csvLines([])).toBe("");
    expect(csvLines([["a", "b,c"], ["=d"]])).toBe('a,"b,c"\r\n\'=d\r\n');
  });
});
