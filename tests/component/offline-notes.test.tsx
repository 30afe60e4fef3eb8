import "fake-indexeddb/auto";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EDITED_ELSEWHERE } from "#shared/rules/offline-sync.ts";
import { NotesPanel } from "../../app/components/reader/notes-panel.tsx";
import { useAnnotations } from "../../app/components/reader/use-annotations.ts";
import { cacheAnnotations, forgetOutbox } from "../../app/lib/offline/outbox.ts";
import type { Annotation } from "../../app/lib/reader/reader-api.ts";

// Issue 45 item 4 (docs/decisions/0051): a note made offline shows at once, marked "not yet saved"
// (named for screen readers), and is sent when the connection returns; offline, the list is the one
// last loaded on this device; an offline change that lost to a later one is shown with its words.

const STORED: Annotation[] = [
  {
    id: 3,
    kind: "note",
    page: 5,
    note: "Ask about the water cycle",
    label: null,
    colour: null,
    start: null,
    end: null,
    text: null,
    createdAt: 0,
    updatedAt: 0,
  },
];

function Panel({ page = 3 }: { page?: number }) {
  const notes = useAnnotations(9, true);
  const [editing, setEditing] = useState<number | null>(null);
  return <NotesPanel bookId={9} page={page} notes={notes} editing={editing} onEditing={setEditing} onGoTo={() => {}} onClose={() => {}} />;
}

let offline = false;
let conflict = false;
beforeEach(async () => {
  await forgetOutbox();
  offline = false;
  conflict = false;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_path: string, init?: RequestInit) => {
      if (offline) throw new TypeError("Failed to fetch");
      const method = init?.method ?? "GET";
      if (method === "GET") return Response.json({ annotations: STORED });
      if (method === "POST")
        return Response.json({ annotation: { ...STORED[0], id: 50, ...JSON.parse(String(init?.body)) } }, { status: 201 });
      if (method === "PATCH" && conflict)
        return Response.json(
          { error: EDITED_ELSEWHERE, status: "edited-elsewhere", annotation: { ...STORED[0], note: "Changed on the laptop" } },
          { status: 409 },
        );
      return Response.json({ annotation: { ...STORED[0], ...JSON.parse(String(init?.body)) } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

/** IndexedDB (fake) and the flush take a few turns of the event loop; on a busy machine more than waitFor's default second. */
const SLOW = { timeout: 5_000 };
const posts = () => vi.mocked(fetch).mock.calls.filter(([, init]) => init?.method === "POST");

async function addNote(text: string) {
  fireEvent.click(screen.getByRole("button", { name: "Add a note to page 3" }));
  fireEvent.change(screen.getByRole("textbox", { name: "Note on page 3" }), { target: { value: text } });
  await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save note" })));
}

describe("notes made offline", () => {
  it("show at once marked 'not yet saved', and are sent, once, when the connection returns", async () => {
    render(<Panel />);
    const list = await screen.findByRole("list", { name: "Your notes, by page" });
    offline = true;
    await addNote("Written on the bus");
    const item = (await within(list).findByText("Written on the bus")).closest("li")!;
    expect(item.dataset.pending).toBe("true");
    expect(within(item).getByText("Not yet saved: it will be sent when you're back online.")).toBeTruthy();
    await waitFor(
      () =>
        expect(screen.getByText("1 change not yet saved. It will be sent when you're back online.").getAttribute("role")).toBe("status"),
      SLOW,
    );

    offline = false;
    await act(async () => window.dispatchEvent(new Event("online")));
    await waitFor(() => expect(within(list).getByText("Written on the bus").closest("li")!.dataset.pending).toBeUndefined(), SLOW);
    // The outbox's count clears a turn after the note's mark (a full run saw the status still there).
    await waitFor(() => expect(screen.queryByText(/not yet saved/)).toBeNull(), SLOW);
    // Tried once offline, sent once online, both under the one client id.
    const ids = posts().map(([, init]) => JSON.parse(String(init?.body)).clientId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it("offline, the reader shows the notes as last loaded on this device, and what was made since", async () => {
    await cacheAnnotations(9, STORED);
    offline = true;
    render(<Panel />);
    expect(await screen.findByText(/You're offline\. These are your notes as last loaded on this device/)).toBeTruthy();
    expect(screen.getByText("Ask about the water cycle")).toBeTruthy();
    await addNote("Made offline");
    expect((await screen.findByText("Made offline")).closest("li")!.dataset.pending).toBe("true");
  });

  it("an offline change that lost to a later one elsewhere is shown with the teacher's words to copy", async () => {
    render(<Panel />);
    await screen.findByRole("list", { name: "Your notes, by page" });
    offline = true;
    fireEvent.click(screen.getByRole("button", { name: "Edit the note on page 5" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Note on page 5" }), { target: { value: "My offline wording" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save" })));
    offline = false;
    conflict = true;
    await act(async () => window.dispatchEvent(new Event("online")));
    const problems = await screen.findByRole("list", { name: "Changes that were not saved" }, SLOW);
    expect(within(problems).getByText(EDITED_ELSEWHERE)).toBeTruthy();
    expect((within(problems).getByRole("textbox", { name: "Your offline change" }) as HTMLTextAreaElement).value).toBe(
      "My offline wording",
    );
    await act(async () => fireEvent.click(within(problems).getByRole("button", { name: "Dismiss" })));
    await waitFor(() => expect(screen.queryByRole("list", { name: "Changes that were not saved" })).toBeNull());
  });
});
