import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useParams } from "react-router";
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

/**
 * The search API answering with the books whose key the query is: at once, or when `hold` is
 * given, only after the returned `release(query)` is called for that query.
 */
function stubSearch(options: { hold?: boolean } = {}) {
  const waiting = new Map<string, () => void>();
  const fetchMock = vi.fn(async (url: string) => {
    const query = new URL(url, "http://localhost").searchParams.get("query") ?? "";
    if (options.hold) await new Promise<void>((resolve) => waiting.set(query, resolve));
    const hits = (books[query] ?? []).map((b) => ({ ...b, author1: "A. Author", author2: null, subject: "Maths", gradeLevel: 9 }));
    return Response.json({ books: hits });
  });
  vi.stubGlobal("fetch", fetchMock);
  return {
    fetchMock,
    async release(query: string) {
      await vi.waitFor(() => expect(waiting.has(query)).toBe(true));
      waiting.get(query)?.();
    },
  };
}

function BookPage() {
  return <h1>Book page {useParams().id}</h1>;
}

function renderSearch() {
  renderInApp(<BookSearch slug="lincoln-high" basePath="/schools/lincoln-high" />, {
    path: "/schools/lincoln-high/dashboard",
    routes: { "/schools/lincoln-high/dashboard/book/:id": <BookPage /> },
  });
  return screen.getByRole("combobox", { name: "Search books" }) as HTMLInputElement;
}

/** The search box over the stubbed API (held answers with `hold`), with `text` typed into it. */
async function typedIntoSearch(text: string, options: { hold?: boolean } = {}) {
  const search = stubSearch(options);
  const input = renderSearch();
  await userEvent.type(input, text);
  return { search, input };
}

describe("BookSearch", () => {
  it("never acts on the previous query's results: Enter right after new text waits for the new answer", async () => {
    const { input } = await typedIntoSearch("algebra");
    expect(await screen.findByRole("option", { name: /Algebra I\b/ })).toBeTruthy();

    // Replace the text and press ArrowDown, Enter at once, inside the 300 ms debounce.
    await userEvent.keyboard("{Control>}a{/Control}chem{ArrowDown}{Enter}");
    expect(screen.queryByRole("heading", { name: /Book page/ })).toBeNull();
    expect(input.value).toBe("chem");
    // The old results are gone at once; the box says it is searching.
    expect(screen.queryByRole("option", { name: /Algebra/ })).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("Searching...");
    expect(input.getAttribute("aria-activedescendant")).toBeNull();

    // Once the answer for "chem" is in, the Enter pressed before it opens its first book, not Algebra.
    expect(await screen.findByRole("heading", { name: "Book page 3" })).toBeTruthy();
  });

  it("Enter opens the first result once the list shows it", async () => {
    await typedIntoSearch("algebra");
    expect(await screen.findByRole("option", { name: /Algebra II/ })).toBeTruthy();
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { name: "Book page 1" })).toBeTruthy();
  });

  it("Enter pressed before the answer opens the first result when it arrives", async () => {
    const { search } = await typedIntoSearch("algebra{Enter}", { hold: true });
    expect(screen.queryByRole("heading", { name: /Book page/ })).toBeNull();
    await search.release("algebra");
    expect(await screen.findByRole("heading", { name: "Book page 1" })).toBeTruthy();
  });

  it("a pending Enter is dropped when the text changes: the stale answer opens nothing", async () => {
    const { search, input } = await typedIntoSearch("algebra", { hold: true });
    await vi.waitFor(() => expect(search.fetchMock).toHaveBeenCalledTimes(1));
    await userEvent.keyboard("{Enter}{Backspace}");
    await search.release("algebra");
    // The answer for "algebra" came in while the box says "algebr": nothing opens, nothing is listed.
    await search.release("algebr");
    expect(await screen.findByRole("listbox")).toBeTruthy();
    expect(screen.getByRole("listbox").textContent).toBe("No books found");
    expect(screen.queryByRole("heading", { name: /Book page/ })).toBeNull();
    expect(input.value).toBe("algebr");
  });

  it("Enter on an empty answer opens nothing and says 'No books found'", async () => {
    const { input } = await typedIntoSearch("zzz{Enter}");
    expect((await screen.findByRole("listbox")).textContent).toBe("No books found");
    await userEvent.keyboard("{Enter}");
    expect(screen.queryByRole("heading", { name: /Book page/ })).toBeNull();
    expect(input.value).toBe("zzz");
  });

  it("stays closed below 3 characters and until the first answer, then says 'No books found'", async () => {
    const { search, input } = await typedIntoSearch("ch");
    expect(screen.queryByRole("listbox")).toBeNull();
    await userEvent.type(input, "x");
    // Before the first answer the dropdown stays hidden; the box says it is searching.
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("Searching...");
    expect((await screen.findByRole("listbox")).textContent).toBe("No books found");
    expect(screen.getByRole("status").textContent).toBe("");
    expect(search.fetchMock).toHaveBeenCalledTimes(1);
  });
});
