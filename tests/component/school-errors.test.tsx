import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, Link, Outlet, useLoaderData } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppErrorBoundary as RootErrorBoundary } from "../../app/components/public/app-error-boundary.tsx";
import { shouldRevalidate as rootShouldRevalidate } from "../../app/lib/revalidation.ts";
import { shouldRevalidate as layoutShouldRevalidate, ErrorBoundary as SchoolAppErrorBoundary } from "../../app/routes/school-app.tsx";
import { ErrorBoundary as BookErrorBoundary } from "../../app/routes/school-book.tsx";
import { ErrorBoundary as DashboardErrorBoundary } from "../../app/routes/school-dashboard.tsx";
import { ErrorBoundary as LibraryErrorBoundary } from "../../app/routes/school-library.tsx";
import { ErrorBoundary as ReaderErrorBoundary } from "../../app/routes/school-reader.tsx";
import { LINCOLN_HIGH } from "./school-dialogs.tsx";

afterEach(() => {
  vi.restoreAllMocks();
});

const BASE = "/schools/lincoln-high";
const school = LINCOLN_HIGH;
const publisher = { name: "Lectern Press", address: "1200 Printers Row", phones: [], email: "" };
function StubLayout() {
  return (
    <div>
      <p>School layout</p>
      <Outlet />
    </div>
  );
}
function StubDashboard({ to }: { to: string }) {
  return <Link to={to}>Open the page</Link>;
}
function StubPage() {
  return <h1>The page arrived</h1>;
}

/** What the browser throws when a page's data cannot be fetched because the connection dropped. */
const dropped = () => new TypeError("Failed to fetch");

/**
 * The school area as the app nests it: root > school layout > pages, with the real error
 * boundaries, and a dashboard that links to a page whose data fails `failures` times.
 */
function renderSchool(page: { path: string; ErrorBoundary?: () => React.ReactNode; failures?: number; layout?: boolean }) {
  let failures = page.failures ?? Number.POSITIVE_INFINITY;
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ publisher, school: { name: school.schoolName, basePath: BASE } }),
      Component: Outlet,
      ErrorBoundary: RootErrorBoundary,
      children: [
        {
          id: "routes/school-app",
          path: BASE.slice(1),
          loader: () => ({ school, teacherName: "Ada Lovelace", basePath: BASE }),
          Component: StubLayout,
          ErrorBoundary: page.layout === false ? undefined : SchoolAppErrorBoundary,
          children: [
            {
              path: "dashboard",
              // biome-ignore lint/correctness/noComponentHookFactories: each test links to its own page
              Component: () => <StubDashboard to={`${BASE}/${page.path}`} />,
            },
            {
              path: page.path,
              loader: () => {
                if (failures-- > 0) throw dropped();
                return { ok: true };
              },
              Component: StubPage,
              ErrorBoundary: page.ErrorBoundary,
            },
          ],
        },
      ],
    },
  ]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Stub initialEntries={[`${BASE}/dashboard`]} />
    </QueryClientProvider>,
  );
}

async function openPage() {
  await userEvent.click(await screen.findByRole("link", { name: "Open the page" }));
}

function expectBackToDashboard() {
  expect(screen.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe(`${BASE}/dashboard`);
  expect(screen.queryByText("Unexpected Application Error!")).toBeNull();
  expect(screen.queryByRole("link", { name: /Go Home|Return to Home/ })).toBeNull();
}

/**
 * The school area as a client-side visit loads it: one request (`.data`) for every route that
 * loads again, so while `offline` every one of them fails with the browser's TypeError. The
 * root and the layout use their real `shouldRevalidate`.
 */
function renderDashboard() {
  const network = { offline: false };
  const answer = <T,>(value: T) => {
    if (network.offline) throw dropped();
    return value;
  };
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => answer({ publisher, school: { name: school.schoolName, basePath: BASE } }),
      shouldRevalidate: rootShouldRevalidate,
      Component: Outlet,
      ErrorBoundary: RootErrorBoundary,
      children: [
        {
          id: "routes/school-app",
          path: BASE.slice(1),
          loader: () => answer({ school, teacherName: "Ada Lovelace", basePath: BASE }),
          shouldRevalidate: layoutShouldRevalidate,
          Component: StubLayout,
          ErrorBoundary: SchoolAppErrorBoundary,
          children: [
            {
              path: "dashboard",
              loader: ({ request }) => answer({ subject: new URL(request.url).searchParams.get("subject") }),
              Component: StubShelf,
              ErrorBoundary: DashboardErrorBoundary,
            },
          ],
        },
      ],
    },
  ]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Stub initialEntries={[`${BASE}/dashboard?subject=Maths`]} />
    </QueryClientProvider>,
  );
  return network;
}
function StubShelf() {
  const { subject } = useLoaderData() as { subject: string | null };
  return (
    <>
      <h1>{subject ? `Shelf: ${subject}` : "Shelf: all"}</h1>
      <Link to={`${BASE}/dashboard`}>All Books</Link>
      <Link to={`${BASE}/dashboard?subject=Maths`}>This shelf again</Link>
    </>
  );
}

describe("a dropped connection on the way to the dashboard", () => {
  it.each([
    ["a filter change (the query changes)", "All Books"],
    ["a link to the page already shown", "This shelf again"],
  ])("%s says 'Unable to load books' inside the school's layout, and Try Again loads the shelf", async (_, link) => {
    const network = renderDashboard();
    expect(await screen.findByRole("heading", { name: "Shelf: Maths" })).toBeTruthy();
    network.offline = true;
    await userEvent.click(screen.getByRole("link", { name: link }));
    expect(await screen.findByRole("heading", { name: "Unable to load books" })).toBeTruthy();
    expect(screen.getByText("School layout")).toBeTruthy();
    expect(screen.queryByText("Unexpected Application Error!")).toBeNull();
    expect(screen.getByRole("alert").textContent).toMatch(/^You appear to be offline\./);

    network.offline = false;
    await userEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("heading", { name: /^Shelf: / })).toBeTruthy();
    expect(screen.getByText("School layout")).toBeTruthy();
  });
});

describe("a dropped connection inside a school", () => {
  it("a book page says the teacher is offline, inside the layout, and Try Again loads it", async () => {
    renderSchool({ path: "dashboard/book/7", ErrorBoundary: BookErrorBoundary, failures: 1 });
    await openPage();
    expect((await screen.findByRole("heading", { name: "You appear to be offline" })).textContent).toBeTruthy();
    expect(screen.getByText("School layout")).toBeTruthy();
    expectBackToDashboard();
    await userEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("heading", { name: "The page arrived" })).toBeTruthy();
  });

  it("the dashboard says 'Unable to load books', that the browser is offline, with Try Again", async () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    renderSchool({ path: "dashboard/shelf", ErrorBoundary: DashboardErrorBoundary });
    await openPage();
    expect(await screen.findByRole("heading", { name: "Unable to load books" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toMatch(/^You appear to be offline\./);
    expect(screen.getByRole("button", { name: "Try Again" })).toBeTruthy();
    expect(screen.getByText("School layout")).toBeTruthy();
  });

  it("the library says 'Unable to load books' and leads back to the dashboard", async () => {
    renderSchool({ path: "books", ErrorBoundary: LibraryErrorBoundary });
    await openPage();
    expect(await screen.findByRole("heading", { name: "Unable to load books" })).toBeTruthy();
    expectBackToDashboard();
  });

  it("a page without its own boundary fails inside the school's layout (sidebar and all)", async () => {
    renderSchool({ path: "account" });
    await openPage();
    expect(await screen.findByRole("heading", { name: "You appear to be offline" })).toBeTruthy();
    expect(screen.getByText("Lincoln High School")).toBeTruthy();
    expectBackToDashboard();
  });

  it("an error the school's routes never saw (the root's) still leads back to the school", async () => {
    renderSchool({ path: "account", layout: false });
    await openPage();
    expect(await screen.findByRole("heading", { name: "You appear to be offline" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Lincoln High School/ }).getAttribute("href")).toBe(`${BASE}/dashboard`);
    expectBackToDashboard();
  });

  it("the reader's screen says so and leads back to the school's dashboard", async () => {
    const Stub = createRoutesStub([
      {
        path: "/schools/:slug/dashboard/book/:bookId/view",
        loader: () => {
          throw dropped();
        },
        Component: StubPage,
        ErrorBoundary: ReaderErrorBoundary,
      },
    ]);
    render(<Stub initialEntries={[`${BASE}/dashboard/book/7/view`]} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("You appear to be offline");
    expect(screen.getByRole("link", { name: "Back to Dashboard" }).getAttribute("href")).toBe(`${BASE}/dashboard`);
  });
});
