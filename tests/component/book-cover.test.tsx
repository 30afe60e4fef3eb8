import { act, fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BOOK_GRID_COVER_SIZES, BookCard } from "../../app/components/school/book-card.tsx";
import { BookCover } from "../../app/components/ui/book-cover.tsx";
import { renderInApp } from "./render.tsx";

const src = "/api/books/7/thumbnail?v=1700000000000";

// happy-dom loads no images and calls every one complete with no pixels, i.e. broken: here they are still loading.
beforeEach(() => {
  vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(false);
});

/** The image's candidates as the browser reads them: URL and width descriptor. */
function candidates(img: HTMLElement): string[][] {
  return (img.getAttribute("srcset") ?? "").split(",").map((candidate) => candidate.trim().split(/\s+/));
}

describe("BookCover", () => {
  it("offers the 256 and 512 px WebP renditions in a 2:3 box, the browser picking by `sizes`", () => {
    render(<BookCover src={src} title="Algebra I" sizes="120px" />);
    const img = screen.getByRole("img", { name: "Cover of Algebra I" });
    expect(candidates(img)).toEqual([
      [`${src}&w=256`, "256w"],
      [`${src}&w=512`, "512w"],
    ]);
    expect(img.getAttribute("sizes")).toBe("120px");
    expect(img.getAttribute("src")).toBe(`${src}&w=512`);
    expect([img.getAttribute("width"), img.getAttribute("height")]).toEqual(["512", "768"]);
    expect([img.getAttribute("loading"), img.getAttribute("fetchpriority")]).toEqual(["lazy", "auto"]);
  });

  it("loads a first-screen cover eagerly and early", () => {
    render(<BookCover src={src} title="Algebra I" priority />);
    const img = screen.getByRole("img", { name: "Cover of Algebra I" });
    expect([img.getAttribute("loading"), img.getAttribute("fetchpriority")]).toEqual(["eager", "high"]);
    // Outside the grid, covers are drawn at most 256 CSS px wide.
    expect(img.getAttribute("sizes")).toBe("256px");
  });

  it("shows the placeholder when there is no cover, or when it fails to load", () => {
    render(<BookCover src={null} title="No Picture" />);
    expect(screen.getByRole("img", { name: "No cover for No Picture" }).tagName).toBe("DIV");

    render(<BookCover src={src} title="Broken" />);
    const img = screen.getByRole("img", { name: "Cover of Broken" });
    act(() => {
      fireEvent.error(img);
    });
    expect(screen.queryByRole("img", { name: "Cover of Broken" })).toBeNull();
    expect(screen.getByRole("img", { name: "No cover for Broken" })).toBeTruthy();
  });
});

describe("BookCard's cover", () => {
  it("is sized for the grid's column at each breakpoint", () => {
    renderInApp(
      <BookCard
        book={{
          id: 7,
          title: "Algebra I",
          author1: "Ruth Adler",
          author2: null,
          description: "Linear equations, step by step.",
          isbn: null,
          gradeLevel: 9,
          subject: "Mathematics",
          pageCount: 24,
          thumbnailPath: src,
          hasPdf: true,
          readable: true,
          createdAt: 0,
          availableUntil: null,
        }}
        href="/schools/x/dashboard/book/7"
        priority
      />,
    );
    const img = screen.getByRole("img", { name: "Cover of Algebra I" });
    expect(img.getAttribute("sizes")).toBe(BOOK_GRID_COVER_SIZES);
    expect(img.getAttribute("fetchpriority")).toBe("high");
  });
});

describe("BOOK_GRID_COVER_SIZES", () => {
  /** The width `sizes` gives at a viewport `width` px wide: the first matching media condition's calc. */
  function slotWidth(viewport: number): number {
    for (const entry of BOOK_GRID_COVER_SIZES.split(/,\s*(?![^()]*\))/)) {
      const media = /^\(min-width: (\d+)px\)\s*(.*)$/.exec(entry);
      if (media && viewport < Number(media[1])) continue;
      const [, minus, columns, less] = /calc\(\(100vw - (\d+)px\) \/ (\d+) - (\d+)px\)/.exec(media ? (media[2] ?? "") : entry) ?? [];
      return (viewport - Number(minus)) / Number(columns) - Number(less);
    }
    throw new Error("no size for this viewport");
  }

  it("matches the covers' widths measured in Chromium (169 px at 390, 177 at 1280, 251 at 1920)", () => {
    expect(Math.round(slotWidth(390))).toBe(169);
    expect(Math.round(slotWidth(768))).toBe(166);
    expect(Math.round(slotWidth(1024))).toBe(162);
    expect(Math.round(slotWidth(1280))).toBe(177);
    expect(Math.round(slotWidth(1920))).toBe(251);
  });
});
