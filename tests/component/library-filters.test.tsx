import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, useLoaderData, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ALL_BOOKS,
  matchesFilterText,
  readShelfQuery,
  type ShelfGroup,
  type ShelfQuery,
  shelfFacets,
  writeShelfQuery,
} from "#shared/rules/shelf-query.ts";
import type { LibraryData } from "../../app/components/school/library-data.ts";
import { LibraryFilters } from "../../app/components/school/library-filters.tsx";
import { FILTER_DEBOUNCE_MS, LibraryView } from "../../app/components/school/library-view.tsx";
import type { LibraryBook } from "../../workers/reading/library.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// A small shelf: (subject, grade) counts as the loader sends them.
const GROUPS: ShelfGroup[] = [
  { subject: "Science", gradeLevel: 9, count: 2, matching: 2, starred: 1 },
  { subject: "Science", gradeLevel: 10, count: 1, matching: 1, starred: 0 },
  { subject: "Mathematics", gradeLevel: 9, count: 1, matching: 1, starred: 0 },
  { subject: "Art", gradeLevel: null, count: 1, matching: 1, starred: 0 },
];

function book(id: number, title: string, subject: string | null, gradeLevel: number | null, starred = false): LibraryBook {
  return {
    id,
    title,
    author1: "Ann Lee",
    author2: null,
    description: `${title} for the classroom.`,
    isbn: null,
    gradeLevel,
    subject,
    pageCount: 10,
    thumbnailPath: null,
    hasPdf: true,
    readable: true,
    createdAt: 0,
    availableUntil: null,
    starred,
  };
}

/** A select's chosen value. */
const selected = (select: HTMLElement) => (select as unknown as { value: string }).value;
/** The choices a select offers, as a person reads them. */
const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole("option")
    .map((o) => o.textContent);
/** The radios of a group by their accessible names (the chips show a count beside the label). */
const radioLabels = (group: HTMLElement) =>
  within(group)
    .getAllByRole("radio")
    .map((r) => r.getAttribute("aria-label"));

const BOOKS = [
  book(1, "Biology Basics", "Science", 9, true),
  book(2, "Zoology Field Guide", "Science", 9),
  book(3, "Chemistry Now", "Science", 10),
  book(4, "Algebra Essentials", "Mathematics", 9),
  book(5, "Art Through the Ages", "Art", null),
];

describe("the shelf query in the URL", () => {
  it("reads leniently and writes without defaults", () => {
    expect(readShelfQuery(new URLSearchParams("subject=Science&grade=9&sort=read&q=cell&mine=1"))).toEqual({
      subject: "Science",
      grade: 9,
      sort: "read",
      q: "cell",
      mine: true,
    });
    expect(readShelfQuery(new URLSearchParams("sort=toString&grade=nine&mine=true&subject=%20%20"))).toEqual(ALL_BOOKS);
    expect(writeShelfQuery({ ...ALL_BOOKS, subject: "Social Studies", grade: 3 }).toString()).toBe("subject=Social+Studies&grade=3");
    expect(writeShelfQuery(ALL_BOOKS, new URLSearchParams("q=x&keep=1")).toString()).toBe("keep=1");
  });

  it("counts each filter within the others", () => {
    const facets = shelfFacets(GROUPS, { subject: "Science", grade: 9, mine: false });
    expect(facets.subjects.map((o) => `${o.label} ${o.count}`)).toEqual(["All subjects 3", "Art 0", "Mathematics 1", "Science 2"]);
    expect(facets.grades.map((o) => `${o.label} ${o.count}`)).toEqual(["All grades 3", "Standard 9 2", "Standard 10 1"]);
    expect([facets.all, facets.mine, facets.shown]).toEqual([2, 1, 2]);
    const mine = shelfFacets(GROUPS, { subject: null, grade: null, mine: true });
    expect([mine.all, mine.mine, mine.shown, mine.subjects[0]!.count]).toEqual([5, 1, 1, 1]);
  });

  it("matches the text as the search index does: word prefixes, accents folded, ISBNs with hyphens", () => {
    const élan = { ...book(9, "Élan vital", "Philosophy", 12), isbn: "978-1-955000-19-5" };
    expect(matchesFilterText(élan, "elan vit")).toBe(true);
    expect(matchesFilterText(élan, "philo")).toBe(true);
    expect(matchesFilterText(élan, "lan")).toBe(false);
    expect(matchesFilterText(élan, "978-1-9550")).toBe(true);
    expect(matchesFilterText(élan, "  ")).toBe(true);
  });
});

describe("LibraryFilters", () => {
  function renderFilters(query: ShelfQuery = ALL_BOOKS) {
    const onChange = vi.fn();
    const onText = vi.fn();
    render(<LibraryFilters query={query} facets={shelfFacets(GROUPS, query)} text={query.q} onText={onText} onChange={onChange} />);
    return { onChange, onText };
  }

  it("shows the spec's placeholder 'Search books...', named 'Filter this list' apart from the header's search", () => {
    const { onText } = renderFilters();
    const box = screen.getByRole("searchbox", { name: "Filter this list" });
    expect(box.getAttribute("placeholder")).toBe("Search books...");
    fireEvent.change(box, { target: { value: "zoo" } });
    expect(onText).toHaveBeenCalledWith("zoo");
  });

  it("sorts with a labelled select", async () => {
    const { onChange } = renderFilters();
    const sort = screen.getByRole("combobox", { name: "Sort by" });
    expect(optionTexts(sort)).toEqual(["Title (A–Z)", "Recently added", "Recently read"]);
    await userEvent.selectOptions(sort, "read");
    expect(onChange).toHaveBeenCalledWith({ sort: "read" });
  });

  it("offers subject and grade chips with counts that follow the other filter", async () => {
    const { onChange } = renderFilters({ ...ALL_BOOKS, grade: 9 });
    const subjects = screen.getByRole("radiogroup", { name: "Subject" });
    expect(radioLabels(subjects)).toEqual(["All subjects (3)", "Art (0)", "Mathematics (1)", "Science (2)"]);
    const grades = screen.getByRole("radiogroup", { name: "Grade" });
    expect(within(grades).getByRole("radio", { name: "Standard 9 (3)" }).getAttribute("aria-checked")).toBe("true");
    await userEvent.click(within(subjects).getByRole("radio", { name: "Science (2)" }));
    expect(onChange).toHaveBeenLastCalledWith({ subject: "Science" });
    // Arrow keys move within a row, as in any radio group.
    within(grades).getByRole("radio", { name: "Standard 9 (3)" }).focus();
    await userEvent.keyboard("{ArrowRight}");
    expect(onChange).toHaveBeenLastCalledWith({ grade: 10 });
    await userEvent.click(within(grades).getByRole("radio", { name: "All grades (5)" }));
    expect(onChange).toHaveBeenLastCalledWith({ grade: null });
  });

  it("has compact selects for phones with the same choices and counts", async () => {
    const { onChange } = renderFilters({ ...ALL_BOOKS, subject: "Science" });
    const subject = screen.getByRole("combobox", { name: "Subject" });
    const grade = screen.getByRole("combobox", { name: "Grade" });
    expect(selected(subject)).toBe("Science");
    expect(optionTexts(grade)).toEqual(["All grades (3)", "Standard 9 (2)", "Standard 10 (1)"]);
    await userEvent.selectOptions(grade, "9");
    expect(onChange).toHaveBeenLastCalledWith({ grade: 9 });
    await userEvent.selectOptions(subject, "");
    expect(onChange).toHaveBeenLastCalledWith({ subject: null });
    // The phone's selects sit in a row that only small screens show; the chips in one they hide.
    expect(subject.closest(".sm\\:hidden")).not.toBeNull();
    expect(screen.getByRole("radiogroup", { name: "Subject" }).closest(".hidden.sm\\:block")).not.toBeNull();
  });

  it("switches between All Books and My books, each with its count", async () => {
    const { onChange } = renderFilters();
    const show = screen.getByRole("radiogroup", { name: "Show" });
    expect(radioLabels(show)).toEqual(["All Books (5)", "My books (1)"]);
    await userEvent.click(within(show).getByRole("radio", { name: "My books (1)" }));
    expect(onChange).toHaveBeenLastCalledWith({ mine: true });
  });
});

/** The dashboard route's component, with the URL shown for the assertions. */
function Page() {
  const data = useLoaderData() as LibraryData;
  const location = useLocation();
  return (
    <>
      <output data-testid="url">{location.search}</output>
      <LibraryView data={data} />
    </>
  );
}

function BookPage() {
  return <h1>Book page</h1>;
}

function NoFallback() {
  return null;
}

describe("LibraryView: the filters in the URL, and stars", () => {
  /** The dashboard as a stubbed route: its loader filters BOOKS by the URL as the server would. */
  function renderLibrary(path = "/schools/s/dashboard", options: { starred?: Set<number> } = {}) {
    const starred = options.starred ?? new Set([1]);
    const loads: string[] = [];
    function loader({ request }: { request: Request }): LibraryData {
      const url = new URL(request.url);
      loads.push(url.search);
      const query = readShelfQuery(url.searchParams);
      const books = BOOKS.map((b) => ({ ...b, starred: starred.has(b.id) })).filter(
        (b) =>
          (!query.subject || b.subject === query.subject) &&
          (query.grade === null || b.gradeLevel === query.grade) &&
          (!query.mine || b.starred) &&
          matchesFilterText(b, query.q),
      );
      const groups = GROUPS.map((g) => ({
        ...g,
        starred: BOOKS.filter((b) => starred.has(b.id) && b.subject === g.subject && b.gradeLevel === g.gradeLevel).length,
      }));
      return { firstBooks: books, total: 5, groups, query, slug: "s", basePath: "/schools/s" };
    }
    const Stub = createRoutesStub([
      { path: "/schools/s/dashboard", Component: Page, loader, HydrateFallback: NoFallback },
      { path: "/schools/s/dashboard/book/:id", Component: BookPage },
    ]);
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <Stub initialEntries={[path]} />
      </QueryClientProvider>,
    );
    return { loads, url: () => screen.getByTestId("url").textContent };
  }

  const gridTitles = () => screen.queryAllByRole("heading", { level: 3 }).map((h) => h.textContent);

  it("puts subject and grade into the URL, and the loader's list follows both", async () => {
    const { url, loads } = renderLibrary();
    await screen.findByRole("heading", { name: "Books Library" });
    expect(gridTitles()).toHaveLength(5);
    await userEvent.click(within(screen.getByRole("radiogroup", { name: "Subject" })).getByRole("radio", { name: /^Science/ }));
    await waitFor(() => expect(url()).toBe("?subject=Science"));
    await userEvent.click(within(screen.getByRole("radiogroup", { name: "Grade" })).getByRole("radio", { name: /^Standard 9 / }));
    await waitFor(() => expect(url()).toBe("?subject=Science&grade=9"));
    await waitFor(() => expect(gridTitles()).toEqual(["Biology Basics", "Zoology Field Guide"]));
    expect(loads.at(-1)).toBe("?subject=Science&grade=9");
    expect(screen.getByText("2 book(s) available")).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "added");
    await waitFor(() => expect(url()).toBe("?subject=Science&grade=9&sort=added"));
  });

  it("opens with the URL's filters chosen (a shared link)", async () => {
    renderLibrary("/schools/s/dashboard?grade=10&sort=read");
    await screen.findByRole("heading", { name: "Books Library" });
    expect(gridTitles()).toEqual(["Chemistry Now"]);
    expect(selected(screen.getByRole("combobox", { name: "Sort by" }))).toBe("read");
    expect(selected(screen.getByRole("combobox", { name: "Grade" }))).toBe("10");
  });

  it("narrows the list at once while typing, then puts the text into the URL", async () => {
    const { url } = renderLibrary();
    const box = await screen.findByRole("searchbox", { name: "Filter this list" });
    fireEvent.change(box, { target: { value: "zoo" } });
    expect(gridTitles()).toEqual(["Zoology Field Guide"]);
    expect(url()).toBe("");
    await waitFor(() => expect(url()).toBe("?q=zoo"), { timeout: FILTER_DEBOUNCE_MS + 1000 });
    expect(gridTitles()).toEqual(["Zoology Field Guide"]);
  });

  it("stars at once, then counts it in My books; rolls back and says so when the server refuses", async () => {
    const calls: string[] = [];
    let fail = false;
    let answer = () => {};
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        calls.push(`${init?.method ?? (input instanceof Request ? input.method : "GET")} ${new URL(url, "http://localhost").pathname}`);
        if (!fail) return Response.json({ bookId: 2, starred: true });
        // The refusal waits until the test has seen the optimistic star.
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return Response.json({ error: "Server error" }, { status: 500 });
      }),
    );
    renderLibrary();
    const star = await screen.findByRole("button", { name: "Add Zoology Field Guide to My books" });
    expect(star.getAttribute("aria-pressed")).toBe("false");
    expect(screen.getByRole("radio", { name: "My books (1)" })).toBeTruthy();
    await userEvent.click(star);
    const pressed = screen.getByRole("button", { name: "Remove Zoology Field Guide from My books" });
    expect(pressed.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("radio", { name: "My books (2)" })).toBeTruthy();
    await waitFor(() => expect(calls).toEqual(["PUT /api/books/2/favourite"]));

    fail = true;
    await userEvent.click(screen.getByRole("button", { name: "Add Chemistry Now to My books" }));
    // Optimistic first...
    expect(screen.getByRole("button", { name: "Remove Chemistry Now from My books" })).toBeTruthy();
    // ...then back, with a message.
    answer();
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "Could not add Chemistry Now to My books. Please try again.");
    expect(screen.getByRole("button", { name: "Add Chemistry Now to My books" }).getAttribute("aria-pressed")).toBe("false");
    expect(screen.getByRole("radio", { name: "My books (2)" })).toBeTruthy();
  });

  it("shows only starred books in My books, and an unstarred one leaves the list", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ bookId: 1, starred: false })),
    );
    const { url } = renderLibrary("/schools/s/dashboard", { starred: new Set([1, 4]) });
    await userEvent.click(await screen.findByRole("radio", { name: "My books (2)" }));
    await waitFor(() => expect(url()).toBe("?mine=1"));
    await waitFor(() => expect(gridTitles()).toEqual(["Biology Basics", "Algebra Essentials"]));
    expect(screen.getByText("2 book(s) available")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Remove Biology Basics from My books" }));
    expect(gridTitles()).toEqual(["Algebra Essentials"]);
    expect(screen.getByText("1 book(s) available")).toBeTruthy();
    expect(screen.getByRole("radio", { name: "My books (1)" })).toBeTruthy();
  });

  it("says how to fill My books when it is empty", async () => {
    renderLibrary("/schools/s/dashboard?mine=1", { starred: new Set() });
    expect(await screen.findByText("No books found")).toBeTruthy();
    expect(screen.getByText("Tap the star on a book to add it to My books.")).toBeTruthy();
    await act(async () => {});
  });
});
