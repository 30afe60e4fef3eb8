import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { BookCard } from "../../app/components/school/book-card.tsx";
import { FavouriteStar } from "../../app/components/school/favourite-star.tsx";
import { renderInApp } from "./render.tsx";

const book = {
  id: 7,
  title: "Algebra I",
  author1: "Ruth Adler",
  author2: "Carlos Mendes",
  description: "Linear equations, step by step.",
  isbn: null,
  gradeLevel: 9,
  subject: "Mathematics",
  pageCount: 24,
  thumbnailPath: "/api/books/7/thumbnail?v=1",
  hasPdf: true,
  readable: true,
  createdAt: 0,
  availableUntil: null,
};

/** Whether `element` is taken out of the flow to be laid over something (Tailwind's `absolute`/`fixed`). */
const laidOver = (element: Element) => /(^|\s)(absolute|fixed)(\s|$)/.test(element.className);

describe("BookCard", () => {
  it("puts the star and the (i) below the cover, in the card's bottom row, never over the cover; the category shows whole", () => {
    renderInApp(
      <BookCard
        book={book}
        href="/schools/x/dashboard/book/7"
        star={<FavouriteStar title={book.title} starred={false} onToggle={() => {}} />}
      />,
    );
    // The cover, or its placeholder where the image does not load (happy-dom loads none).
    const cover = screen.getByRole("img", { name: /cover (of|for) Algebra I/i });
    const star = screen.getByRole("button", { name: "Add Algebra I to My books" });
    const info = screen.getByRole("button", { name: "About Algebra I" });
    const link = screen.getByRole("link");
    for (const button of [star, info]) {
      expect(laidOver(button)).toBe(false);
      expect(link.contains(button)).toBe(false);
      // After the cover and the book's text in the card.
      expect(cover.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(screen.getByText("Ruth Adler, Carlos Mendes").compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    // One row: the page count, then (i), then the star; the category, whole, above the title.
    const row = star.parentElement!;
    expect(row.contains(info)).toBe(true);
    expect(row.textContent).toContain("24 pages");
    expect(laidOver(row)).toBe(false);
    const category = screen.getByText("Standard 9");
    expect(link.contains(category)).toBe(true);
    expect(category.className).not.toContain("truncate");
    expect(category.compareDocumentPosition(screen.getByText("Algebra I")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("the link names the book by its title and authors, and is described by the description", () => {
    renderInApp(<BookCard book={book} href="/schools/x/dashboard/book/7" />);
    const link = screen.getByRole("link");
    expect(link.textContent).toContain("Algebra I");
    expect(document.getElementById(link.getAttribute("aria-describedby")!)?.textContent).toBe("Linear equations, step by step.");
  });
});
