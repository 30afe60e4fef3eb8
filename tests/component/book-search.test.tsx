import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BookSearch } from "../../app/components/school/book-search.tsx";
import { renderInApp } from "./render.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

const books: Record<string, { id: number; title: string }[]> = {
  algebra: [
    { id: 1, title: "Algebra I" },
    { id: 2, title: "Algebra II" },
  ],
  chem: [{ id: 3, title: "Chemistry Basics" }],
};

/** The search API answering at once with the books whose key the query is. */
function stubSearch() {
  const fetchMock = vi.fn(async (url: string) => {
    const query = new URL(url, "http://localhost").searchParams.get("query") ?? "";
    const hits = (books[query] ?? []).map((b) => ({ ...b, author1: "A. Author", author2: null, subject: "Maths", gradeLevel: 9 }));
    return Response.json({ books: hits });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function renderSearch() {
  renderInApp(<BookSearch slug="lincoln-high" basePath="/schools/lincoln-high" />, {
    path: "/schools/lincoln-high/dashboard",
    routes: { "/schools/lincoln-high/dashboard/book/:id": <h1>Book page</h1> },
  });
  return screen.getByRole("combobox", { name: "Search books" }) as HTMLInputElement;
}

describe("BookSearch", () => {
  it("never acts on the previous query's results: Enter right after new text opens nothing stale", async () => {
    stubSearch();
    const input = renderSearch();
    await userEvent.type(input, "algebra");
    expect(await screen.findByRole("option", { name: /Algebra I\b/ })).toBeTruthy();

    // Replace the text and press ArrowDown, Enter at once, inside the 300 ms debounce.
    await userEvent.keyboard("{Control>}a{/Control}chem{ArrowDown}{Enter}");
    expect(screen.queryByRole("heading", { name: "Book page" })).toBeNull();
    expect(input.value).toBe("chem");
    // The old results are gone at once; the box says it is searching.
    expect(screen.queryByRole("option", { name: /Algebra/ })).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("Searching...");
    expect(input.getAttribute("aria-activedescendant")).toBeNull();

    // Once the answer for "chem" is in, the keys act on it.
    expect(await screen.findByRole("option", { name: /Chemistry Basics/ })).toBeTruthy();
    await userEvent.keyboard("{ArrowDown}{Enter}");
    expect(await screen.findByRole("heading", { name: "Book page" })).toBeTruthy();
  });

  it("stays closed below 3 characters and until the first answer, then says 'No books found'", async () => {
    const fetchMock = stubSearch();
    const input = renderSearch();
    await userEvent.type(input, "ch");
    expect(screen.queryByRole("listbox")).toBeNull();
    await userEvent.type(input, "x");
    // Before the first answer the dropdown stays hidden; the box says it is searching.
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("Searching...");
    expect((await screen.findByRole("listbox")).textContent).toBe("No books found");
    expect(screen.getByRole("status").textContent).toBe("");
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
