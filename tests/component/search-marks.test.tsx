import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { plainText } from "#shared/rules/plain-text.ts";
import { SearchMarks } from "../../app/components/reader/search-marks.tsx";
import { findMatchBoxes } from "../../app/lib/reader/page-matches.ts";
import type { TextRun } from "../../workers/page-images/page-content.ts";
import { searchPages } from "../../workers/page-images/page-search.ts";

// Issue 23: going to a search result must mark the matched words on the page image itself.

/** A run of `str` at (x, y), 10 points per character, 12 points high. */
const run = (str: string, x: number, y: number): TextRun => ({ str, x, y, w: str.length * 10, h: 12 });

describe("findMatchBoxes", () => {
  it("marks the part of a run that matches, in proportion to its characters", () => {
    expect(findMatchBoxes([run("The cell wall", 72, 100)], "cell")).toEqual([{ x: 112, y: 100, w: 40, h: 12, text: "cell", match: 0 }]);
  });

  it("ignores case, accents and runs of white space as the book's search does", () => {
    const runs = [run("Le CAFÉ  Crème", 0, 0)];
    expect(findMatchBoxes(runs, "cafe creme").map((box) => box.text)).toEqual(["CAFÉ  Crème"]);
    expect(findMatchBoxes(runs, "  Café ")).toMatchObject([{ x: 30, w: 40, text: "CAFÉ" }]);
    expect(findMatchBoxes(runs, "tea")).toEqual([]);
    expect(findMatchBoxes(runs, "   ")).toEqual([]);
  });

  it("numbers every match, and splits one that spans runs or lines into a box per run", () => {
    const runs = [run("a cell, ", 0, 0), run("another cell", 80, 0), run("wall of the", 0, 20), run("cell", 110, 20)];
    const boxes = findMatchBoxes(runs, "Cell wall");
    expect(boxes).toEqual([
      { x: 160, y: 0, w: 40, h: 12, text: "cell", match: 0 },
      { x: 0, y: 20, w: 40, h: 12, text: "wall", match: 0 },
    ]);
    expect(findMatchBoxes(runs, "cell").map((box) => [box.match, box.x, box.y])).toEqual([
      [0, 20, 0],
      [1, 160, 0],
      [2, 110, 20],
    ]);
  });

  it("finds a match on exactly the pages the server's search lists", () => {
    const runs = [run("Photo-", 0, 0), run("synthesis in the Leaf", 0, 20), run("leaf", 300, 20), run("cell", 0, 40)];
    const pageText = plainText({ width: 612, height: 792, runs });
    const queries = ["leaf", "LEAF LEAF", "the leaf", "synthesis", "leaf cell", "in the", "Photo- synthesis", "photosynthesis", "xylem"];
    for (const query of queries) {
      const listed = searchPages([pageText], query).total === 1;
      expect([query, findMatchBoxes(runs, query).length > 0]).toEqual([query, listed]);
    }
  });
});

describe("SearchMarks", () => {
  const runs = [run("The cell wall", 72, 100), run("and the cell", 72, 120)];

  it("lays translucent marks over the matched words, scaled with the page, in a labelled group", () => {
    const { container } = render(<SearchMarks runs={runs} query="CELL" width={612} height={792} scale={1.5} />);
    const group = screen.getByRole("group", { name: "2 matches for “CELL” on this page" });
    expect(group.style.transform).toBe("scale(1.5)");
    expect([group.style.width, group.style.height]).toEqual(["612px", "792px"]);
    const marks = [...container.querySelectorAll("mark")];
    expect(marks.map((mark) => mark.textContent)).toEqual(["cell", "cell"]);
    expect([marks[0]!.style.left, marks[0]!.style.width, marks[1]!.style.left]).toEqual(["112px", "40px", "152px"]);
    // A little above the run's top and below its baseline, for the descenders.
    expect(Number.parseFloat(marks[0]!.style.top)).toBeLessThan(100);
    expect(Number.parseFloat(marks[0]!.style.top) + Number.parseFloat(marks[0]!.style.height)).toBeGreaterThan(112);
  });

  it("renders nothing where the page has no match", () => {
    const { container } = render(<SearchMarks runs={runs} query="membrane" width={612} height={792} scale={1} />);
    expect(container.innerHTML).toBe("");
  });

  it("brings the first match into view once when the page was opened from a result", () => {
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(() => {});
    const onRevealed = vi.fn();
    const { rerender } = render(<SearchMarks runs={runs} query="cell" width={612} height={792} scale={1} />);
    expect(scrolled).not.toHaveBeenCalled();
    rerender(<SearchMarks runs={runs} query="cell" width={612} height={792} scale={1} reveal onRevealed={onRevealed} />);
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(screen.getAllByText("cell", { selector: "mark" })[0]);
    expect(onRevealed).toHaveBeenCalledTimes(1);
  });
});
