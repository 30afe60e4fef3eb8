import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { catalogueCsvTemplate, inPool, matchFiles } from "#shared/catalogue-files.ts";
import { parseCsvRows } from "#shared/csv.ts";
import { MatchSummary } from "../../app/components/admin/catalogue/catalogue-preview.tsx";

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const rows = [
  { row: 2, pdfFile: "Rivers.pdf", coverFile: "rivers.JPG" },
  { row: 3, pdfFile: "numbers.pdf", coverFile: null },
  { row: 5, pdfFile: "atlas.pdf", coverFile: "series.png" },
  { row: 6, pdfFile: "maps.pdf", coverFile: "series.png" },
];

describe("matching dropped files to the rows", () => {
  it("matches by name whatever the case, a cover serving several rows, and names what is missing and what is extra", () => {
    const dropped = [file("rivers.pdf"), file("Rivers.jpg"), file("ATLAS.PDF"), file("series.png"), file("notes.pdf")];
    const match = matchFiles(rows, dropped);
    expect(match.rows.map((r) => [r.row, r.pdf?.name ?? null, r.cover?.name ?? null])).toEqual([
      [2, "rivers.pdf", "Rivers.jpg"],
      [3, null, null],
      [5, "ATLAS.PDF", "series.png"],
      [6, null, "series.png"],
    ]);
    expect(match.missingPdf).toEqual([3, 6]);
    expect(match.missingCover).toEqual([]);
    expect(match.unmatched.map((f) => f.name)).toEqual(["notes.pdf"]);
    expect(match.ambiguous).toEqual([]);
  });

  it("uses neither of two files named alike but for case, and says so", () => {
    const match = matchFiles(rows, [file("numbers.pdf"), file("Numbers.pdf"), file("rivers.pdf")]);
    expect(match.rows[1]!.pdf).toBeNull();
    expect(match.ambiguous).toEqual(["numbers.pdf, Numbers.pdf"]);
    expect(match.unmatched).toEqual([]);
    expect(match.missingCover).toEqual([2, 5, 6]);
  });

  it("the summary names the rows without files and the files no row names", () => {
    const match = matchFiles(rows, [file("rivers.pdf"), file("extra.pdf")]);
    render(<MatchSummary match={match} total={rows.length} />);
    expect(screen.getByText("1 of 4 PDFs dropped.")).toBeTruthy();
    expect(screen.getByText("No PDF yet for rows 3, 5 and 6.")).toBeTruthy();
    expect(screen.getByText("The cover named in rows 2, 5 and 6 is not dropped yet.")).toBeTruthy();
    expect(screen.getByText("No row names extra.pdf: not uploaded.")).toBeTruthy();
  });

  it("the template reads back as rows with the template's file names", () => {
    const { rows: read, rowNumbers } = parseCsvRows(catalogueCsvTemplate());
    expect(rowNumbers).toEqual([2, 3]);
    expect(read.map((r) => [r.title, r.pdfFile, r.coverFile])).toEqual([
      ["Rivers of the World", "rivers.pdf", ""],
      ["Numbers Everywhere", "numbers-everywhere.pdf", "numbers-everywhere.jpg"],
    ]);
  });
});

describe("sending a few at a time", () => {
  it("runs at most the limit at once, every item once, and goes on past a failure", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3) * 3));
      running--;
      if (n === 2) throw new Error("failed");
      done.push(n);
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([1, 3, 4, 5, 6, 7]);
  });
});
