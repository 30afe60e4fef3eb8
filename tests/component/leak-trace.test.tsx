import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useParams } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeConfidence, formatTraceDay } from "../../app/components/admin/leak-matches.tsx";
import { LeakTrace } from "../../app/components/admin/leak-trace.tsx";
import { renderInApp } from "./render.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

const MATCH = {
  teacherId: 41,
  name: "Dana Reader",
  email: "dana.reader@lincoln-high.example.org",
  school: "Lincoln High School",
  day: "2026-11-24",
  bookId: 7,
  title: "Pre-Algebra Foundations",
  page: 12,
  confidence: 0.999999,
};

/**
 * POST /api/leaks/trace answering `status` with `body`; when `hold` is given, only once the returned
 * `release()` is called. `sent` holds each request the page made.
 */
function stubTrace(status: number, body: unknown, options: { hold?: boolean } = {}) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sent: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      if (options.hold) await held;
      return Response.json(body, { status });
    }),
  );
  return { sent, release: () => release() };
}

function BookPage() {
  return <h1>Admin book {useParams().id}</h1>;
}

function renderPage() {
  renderInApp(<LeakTrace />, { path: "/admin/leaks", routes: { "/admin/book/:id": <BookPage /> } });
  return screen.getByLabelText("Leaked page image") as HTMLInputElement;
}

const png = (name = "leaked.png", type = "image/png") => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], name, { type });
const dropZone = () => document.querySelector<HTMLElement>("label[for='leak-image']:not(#leak-image-label)")!;
const drop = (file: File) => fireEvent.drop(dropZone(), { dataTransfer: { files: [file], types: ["Files"], dropEffect: "none" } });
const traceButton = () => screen.getByRole("button", { name: "Trace" }) as HTMLButtonElement;

describe("Trace a leak", () => {
  it("sends the chosen image as the body, says it is busy, then shows who received it", async () => {
    const api = stubTrace(200, { matches: [MATCH] }, { hold: true });
    const input = renderPage();
    expect(input.type).toBe("file");
    expect(input.accept).toBe("image/png,image/jpeg,image/webp");
    expect(traceButton().disabled).toBe(true);

    const file = png();
    await userEvent.upload(input, file);
    expect(screen.getByText("leaked.png (8 B)")).toBeTruthy();
    expect(screen.getByRole("img", { name: "The chosen image, leaked.png" })).toBeTruthy();
    await userEvent.click(traceButton());

    expect(traceButton().disabled).toBe(true);
    expect(document.querySelector("[aria-live='polite']")?.textContent).toBe("Tracing… this takes a few seconds");
    expect(api.sent).toHaveLength(1);
    const [{ url, init }] = api.sent as [(typeof api.sent)[number]];
    expect(url).toBe("/api/leaks/trace");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    expect(init.body).toBe(file);
    expect(new Headers(init.headers).get("Content-Type")).toBe("image/png");

    api.release();
    const card = (await screen.findByRole("heading", { name: "Dana Reader" })).closest("li")!;
    expect(document.activeElement?.textContent).toBe("Traced to one teacher");
    expect(document.querySelector("[aria-live='polite']")?.textContent).toBe("");
    const email = screen.getByRole("link", { name: MATCH.email });
    expect(email.getAttribute("href")).toBe(`mailto:${MATCH.email}`);
    expect(card.textContent).toContain("Lincoln High School");
    expect(card.textContent).toContain("Tue, Nov 24, 2026");
    expect(card.textContent).toContain("Page12");
    expect(card.textContent).toContain("Certain (99.9999 %)");
    await userEvent.click(screen.getByRole("link", { name: "Pre-Algebra Foundations" }));
    expect(await screen.findByRole("heading", { name: "Admin book 7" })).toBeTruthy();
  });

  it("says so when no mark is found, and can start again with another image", async () => {
    stubTrace(200, { matches: [] });
    const input = renderPage();
    await userEvent.upload(input, png("holiday.png"));
    await userEvent.click(traceButton());
    expect(
      await screen.findByText("No mark found. The image may not come from Lectern, or too little of a page is left in it."),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Trace another image" }));
    expect(screen.queryByText(/No mark found/)).toBeNull();
    expect(screen.queryByRole("img")).toBeNull();
    expect(traceButton().disabled).toBe(true);
    expect(document.activeElement).toBe(input);
  });

  it("shows the server's refusal in an alert: too large (413), not an image (400)", async () => {
    stubTrace(413, { error: "The image is larger than 20 MB" });
    const input = renderPage();
    await userEvent.upload(input, png());
    await userEvent.click(traceButton());
    expect((await screen.findByRole("alert")).textContent).toBe("The image is larger than 20 MB");
    expect(screen.queryByText(/No mark found/)).toBeNull();

    stubTrace(400, { error: "The file is not a readable PNG image" });
    await userEvent.click(traceButton());
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toBe("The file is not a readable PNG image"));
  });

  it("refuses another type or a file over 20 MB before sending anything", async () => {
    const api = stubTrace(200, { matches: [] });
    const input = renderPage();
    drop(png("scan.gif", "image/gif"));
    expect(screen.getByRole("alert").textContent).toBe("Choose a PNG, JPEG or WebP image");
    const huge = png("huge.jpg", "image/jpeg");
    Object.defineProperty(huge, "size", { value: 20 * 1024 * 1024 + 1 });
    await userEvent.upload(input, huge);
    expect(screen.getByRole("alert").textContent).toBe("The image is larger than 20 MB");
    expect(traceButton().disabled).toBe(true);
    // A good file clears the message.
    drop(png("page.webp", "image/webp"));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(traceButton().disabled).toBe(false);
    expect(api.sent).toHaveLength(0);
  });
});

describe("how a match is said", () => {
  it("formats the UTC day and the confidence, cut and not rounded up", () => {
    expect(formatTraceDay("2026-11-24")).toBe("Tue, Nov 24, 2026");
    expect(formatTraceDay("2027-01-01")).toBe("Fri, Jan 1, 2027");
    expect(describeConfidence(0.999999)).toEqual({ word: "Certain", percent: "99.9999 %" });
    expect(describeConfidence(0.9999996)).toEqual({ word: "Certain", percent: "99.9999 %" });
    expect(describeConfidence(0.995)).toEqual({ word: "Very likely", percent: "99.5 %" });
    expect(describeConfidence(0.93)).toEqual({ word: "Likely", percent: "93 %" });
    expect(describeConfidence(0.5)).toEqual({ word: "Possible", percent: "50 %" });
  });
});
