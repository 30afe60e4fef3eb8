import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, useLoaderData } from "react-router";
import { describe, expect, it, vi } from "vitest";
import type { SchoolExport as ExportItem } from "../../app/components/admin/school/export-calls.ts";
import { EXPORT_INTENT, SchoolExport } from "../../app/components/admin/school/school-export.tsx";

// Issue 44 item 1: "Export school data" on the admin's school page and the coordinator's My school:
// the request goes to the page's action, the section reads the list again while an export is being
// prepared, then offers the ZIP with a name a screen reader can tell apart; a refusal shows in words.

const AT = Date.UTC(2026, 10, 29, 9, 30);
const QUEUED: ExportItem = {
  id: "7b0a3f64-1a63-4c1b-9d36-0c4f0f3d7e21",
  schoolId: 3,
  slug: "lincoln-high",
  state: "queued",
  requestedBy: "admin@lectern.example",
  requestedAt: AT,
  updatedAt: AT,
  attempts: 0,
  step: null,
  rows: 0,
  size: null,
  error: null,
  expiresAt: AT + 24 * 3600_000,
};

/** The list the rendered page polls (each test renders its own). */
let polled: () => Promise<{ exports: ExportItem[] }> = async () => ({ exports: [] });

function Page() {
  const { exports } = useLoaderData() as { exports: ExportItem[] };
  return <SchoolExport exports={exports} load={() => polled()} downloadHref={(id) => `/download/${id}`} />;
}

/** The section on a page whose loader lists `exports`, whose action answers `answer`, and whose polls answer `polls` in turn. */
function renderPage(options: { exports: ExportItem[]; answer?: object; polls?: ExportItem[][] }) {
  let listed = options.exports;
  const posted = vi.fn();
  const polls = [...(options.polls ?? [])];
  const load = vi.fn(async () => ({ exports: polls.length > 1 ? polls.shift()! : (polls[0] ?? listed) }));
  polled = load;
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: Page,
      loader: () => ({ exports: listed }),
      action: async ({ request }) => {
        posted(Object.fromEntries(await request.formData()));
        if (options.answer) return options.answer;
        listed = [QUEUED];
        return { intent: EXPORT_INTENT, message: "The export is being prepared." };
      },
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  return { posted, load };
}

describe("the school data export", () => {
  it("asks the page's action, shows Preparing… while the list says so, then a named Download link", async () => {
    const building = { ...QUEUED, state: "building" as const, rows: 1250 };
    const ready = { ...QUEUED, state: "ready" as const, size: 6_300 };
    const { posted, load } = renderPage({ exports: [], polls: [[building], [ready]] });
    const section = await screen.findByRole("region", { name: "School data export" });
    const button = within(section).getByRole("button", { name: "Export school data" });
    expect(button.getAttribute("aria-describedby")).toBe("school-export-what");
    await userEvent.click(button);
    expect(posted).toHaveBeenCalledWith({ intent: EXPORT_INTENT });
    expect(await within(section).findByText(/Preparing…/)).toBeTruthy();
    // One export at a time: the button waits while one is being prepared.
    expect((within(section).getByRole("button", { name: "Export school data" }) as HTMLButtonElement).disabled).toBe(true);
    expect(await within(section).findByText(/1,250 rows so far/, undefined, { timeout: 5_000 })).toBeTruthy();
    const link = await within(section).findByRole("link", { name: "Download the school data export (ZIP, 6 KB)" }, { timeout: 5_000 });
    expect(link.getAttribute("href")).toBe(`/download/${QUEUED.id}`);
    expect(load).toHaveBeenCalledTimes(2);
    expect((within(section).getByRole("button", { name: "Export school data" }) as HTMLButtonElement).disabled).toBe(false);
  }, 10_000);

  it("shows a refusal in words and keeps the button", async () => {
    const busy = { intent: EXPORT_INTENT, error: "An export of this school is already being prepared." };
    renderPage({ exports: [], answer: busy });
    const section = await screen.findByRole("region", { name: "School data export" });
    await userEvent.click(within(section).getByRole("button", { name: "Export school data" }));
    expect((await within(section).findByRole("alert")).textContent).toBe("An export of this school is already being prepared.");
  });

  it("shows a failed export's sentence, and asks nothing while none is being prepared", async () => {
    const failed = { ...QUEUED, state: "failed" as const, error: "The export could not be prepared." };
    const { load } = renderPage({ exports: [failed] });
    const section = await screen.findByRole("region", { name: "School data export" });
    expect(within(section).getByText("The export could not be prepared.")).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(load).not.toHaveBeenCalled();
  });
});
