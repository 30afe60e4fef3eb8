import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_READING_SETTINGS, type ReadingSettings } from "#shared/rules/reading-settings.ts";
import { TextView } from "../../app/components/reader/text-view.tsx";
import { createPageStore } from "../../app/lib/reader/page-store.ts";
import { READING_SETTINGS_PATH } from "../../app/lib/reader/reading-settings.ts";

// The Text view's reading settings (issue 29, docs/decisions/0031): what each control does to the
// text, where the choice is kept (the teacher's account, mirrored on the device), and that the
// dyslexia font's stylesheet loads only once someone picks it.

const fontLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@fontsource/opendyslexic/400.css", () => {
  fontLoads.count++;
  return {};
});
vi.mock("@fontsource/opendyslexic/700.css", () => ({}));

// Unmounted while the stubs are in place: a change still waiting is saved as the view closes.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Call = { method: string; path: string; body: unknown };

/** The account's answers: GET with `stored` (or `status`), PUT echoing what it was sent; every call recorded. */
function stubAccount(stored: Partial<ReadingSettings> | null, options: { status?: number; answer?: Promise<void> } = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const method = init.method ?? "GET";
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, body });
      if (path !== READING_SETTINGS_PATH) throw new Error(`unexpected call to ${path}`);
      if (options.status) return Response.json({ error: "Not signed in" }, { status: options.status });
      if (method === "PUT") return Response.json({ settings: body, message: "Your reading settings have been saved." });
      await options.answer;
      return Response.json({ settings: { ...DEFAULT_READING_SETTINGS, ...stored } });
    }),
  );
  return calls;
}

function renderTextView() {
  // A browser that can speak, for the speed and voice controls.
  vi.stubGlobal("speechSynthesis", { speak: vi.fn(), cancel: vi.fn(), getVoices: () => [] });
  vi.stubGlobal("SpeechSynthesisUtterance", class {});
  const store = createPageStore(7, vi.fn(), {
    text: async (n) => ({ n, width: 612, height: 792, runs: [{ str: "Cells are small.", x: 72, y: 72, w: 96, h: 12 }] }),
  });
  render(<TextView store={store} page={1} pageCount={3} failed={false} onGoTo={vi.fn()} />);
}

const article = () => screen.getByRole("region", { name: "Text of page 1 of 3" }).querySelector("article")!;
const frame = () => document.querySelector<HTMLElement>("[data-text-view-frame]")!;
const puts = (calls: Call[]) => calls.filter((call) => call.method === "PUT");

async function openSettings() {
  const toggle = screen.getByRole("button", { name: "Reading settings" });
  await userEvent.click(toggle);
  expect(toggle.getAttribute("aria-expanded")).toBe("true");
  return screen.getByRole("region", { name: "Reading settings" });
}

/** Page 1 in the Text view with its settings panel open, the account answering `stored` (null: nothing kept yet). */
async function openSettingsWith(stored: Partial<ReadingSettings> | null, options?: Parameters<typeof stubAccount>[1]) {
  const calls = stubAccount(stored, options);
  renderTextView();
  await screen.findByText("Cells are small.");
  return { calls, panel: await openSettings() };
}

describe("reading settings in the Text view", () => {
  it("opens in the settings kept on the teacher's account, and mirrors them on the device", async () => {
    stubAccount({ textSize: "x-large", lineSpacing: "wide", theme: "sepia" });
    renderTextView();
    await screen.findByText("Cells are small.");
    await waitFor(() => expect(article().classList).toContain("text-2xl"));
    expect(article().classList).toContain("leading-loose");
    expect(frame().classList).toContain("bg-[#f6efdc]");
    expect(frame().style.colorScheme).toBe("light");
    expect(JSON.parse(localStorage.getItem("lectern-reading-settings") ?? "{}")).toMatchObject({ textSize: "x-large", theme: "sepia" });
  });

  it("paints the device's copy at once, before the account answers", async () => {
    localStorage.setItem("lectern-reading-settings", JSON.stringify({ ...DEFAULT_READING_SETTINGS, textSize: "small", theme: "dark" }));
    let answer = () => {};
    stubAccount({ textSize: "large" }, { answer: new Promise<void>((resolve) => (answer = resolve)) });
    renderTextView();
    expect(article().classList).toContain("text-base");
    expect(frame().classList).toContain("bg-slate-950");
    expect(frame().style.colorScheme).toBe("dark");
    answer();
    await waitFor(() => expect(article().classList).toContain("text-xl"));
    expect(frame().classList).not.toContain("bg-slate-950");
  });

  it("changes size, spacing, font and colours as chosen, and saves the whole set once to the account", async () => {
    const { calls, panel } = await openSettingsWith(null);
    await within(panel).findByText("Kept on your account, for every device you sign in on.");

    await userEvent.click(within(panel).getByRole("radio", { name: "Largest" }));
    expect(article().classList).toContain("text-3xl");
    await userEvent.click(within(panel).getByRole("radio", { name: "Wider" }));
    expect(article().classList).toContain("leading-[2.5]");
    expect(fontLoads.count).toBe(0);
    await userEvent.click(within(panel).getByRole("radio", { name: "OpenDyslexic" }));
    expect(article().classList).toContain("font-['OpenDyslexic',ui-sans-serif,sans-serif]");
    await waitFor(() => expect(fontLoads.count).toBe(1));
    await userEvent.click(within(panel).getByRole("radio", { name: "Dark" }));
    expect(frame().classList).toContain("bg-slate-950");
    expect(frame().className).not.toContain("dark:");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Speed" }), "0.75");

    await waitFor(() => expect(puts(calls)).toHaveLength(1), { timeout: 3000 });
    expect(puts(calls)[0]?.body).toEqual({
      textSize: "xx-large",
      lineSpacing: "wider",
      font: "dyslexic",
      theme: "dark",
      rate: 0.75,
      voice: null,
      dataSaver: "auto",
    });
    await within(panel).findByText("Saved to your account.");
  });

  it("uses the arrow keys within a group and closes with Escape, back to its button", async () => {
    const { panel } = await openSettingsWith(null);
    within(panel).getByRole("radio", { name: "Medium" }).focus();
    await userEvent.keyboard("{ArrowRight}");
    expect((within(panel).getByRole("radio", { name: "Large" }) as HTMLInputElement).checked).toBe(true);
    expect(article().classList).toContain("text-xl");
    expect(within(panel).getByRole("group", { name: "Text size" })).toBeTruthy();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "Reading settings" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Reading settings" }));
  });

  it("keeps them on the device, and sends nothing, for a reader with no teacher account (an admin)", async () => {
    const { calls, panel } = await openSettingsWith(null, { status: 401 });
    await within(panel).findByText("Kept on this device.");
    await userEvent.click(within(panel).getByRole("radio", { name: "Sepia" }));
    expect(frame().classList).toContain("bg-[#f6efdc]");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(puts(calls)).toEqual([]);
    expect(JSON.parse(localStorage.getItem("lectern-reading-settings") ?? "{}").theme).toBe("sepia");
  });

  it("saves a change made just before the Text view closes, at once", async () => {
    const { calls, panel } = await openSettingsWith(null);
    await within(panel).findByText("Kept on your account, for every device you sign in on.");
    await userEvent.click(within(panel).getByRole("radio", { name: "Small" }));
    cleanup();
    expect(puts(calls).map((call) => call.body)).toEqual([{ ...DEFAULT_READING_SETTINGS, textSize: "small" }]);
  });
});
