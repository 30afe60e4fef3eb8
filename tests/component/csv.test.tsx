import { describe, expect, it } from "vitest";
import { parseCsv, parseCsvRows, SCHOOL_CSV_COLUMNS, schoolCsvTemplate } from "../../app/lib/csv.ts";

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
