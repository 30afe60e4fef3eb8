import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { PanelFailed, PanelLoading } from "../../app/components/reader/reader-loading.tsx";
import { LatePart, loadablePart } from "../../app/components/ui/late-part.tsx";

// The reader's panels, text view and presentation, and the offline parts, load their code when
// first shown. A load that fails (the connection dropped; an update replaced the files) must not
// take the page down with it, and must load again when the teacher asks.

function Notes({ page }: { page: number }) {
  return <p>Notes of page {page}</p>;
}

describe("a part loaded when first shown", () => {
  it("says so in its frame when its code cannot be loaded, keeps the page, and loads on Try again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<typeof Notes>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      .mockResolvedValue(Notes);
    const part = loadablePart(load);
    const onClose = vi.fn();
    render(
      <div>
        <p>Page 3 of 24</p>
        <LatePart
          part={part}
          loading={<PanelLoading title="Notes" side="right" onClose={onClose} />}
          failed={(retry) => <PanelFailed title="Notes" side="right" onClose={onClose} retry={retry} />}
        >
          {(Part) => <Part page={3} />}
        </LatePart>
      </div>,
    );
    expect(screen.getByRole("complementary", { name: "Notes" }).textContent).toContain("Opening...");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain('"Notes" could not be opened. Check your connection and try again.');
    // The rest of the page is still there, and the frame still closes.
    expect(screen.getByText("Page 3 of 24")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Close notes" }));
    expect(onClose).toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Notes of page 3")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("loads its code once, however often it is shown", async () => {
    const load = vi.fn(async () => Notes);
    const part = loadablePart(load);
    const view = (page: number) => (
      <LatePart part={part} loading={<p>Opening...</p>} failed={() => <p>failed</p>}>
        {(Part) => <Part page={page} />}
      </LatePart>
    );
    const { rerender, unmount } = render(view(1));
    await screen.findByText("Notes of page 1");
    rerender(view(2));
    expect(screen.getByText("Notes of page 2")).toBeTruthy();
    unmount();
    render(view(5));
    expect(screen.getByText("Notes of page 5")).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
