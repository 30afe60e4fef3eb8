import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PAGE_OFFLINE_TEXT, PageImage } from "../../app/components/reader/page-image.tsx";
import { createPageStore } from "../../app/lib/reader/page-store.ts";
import { ReaderApiError } from "../../app/lib/reader/reader-api.ts";

// A book not kept for offline, opened from the app shell's copy with no connection (docs/decisions/0049):
// the reader's page says so in a sentence instead of staying blank, and fills in once the browser is back online.
describe("a page of a book not kept, with no connection", () => {
  it("says the teacher is offline and the book is not kept, then shows the page once back online", async () => {
    let online = false;
    const store = createPageStore(7, () => {}, {
      image: async () => {
        if (!online) throw new ReaderApiError("Network error: check your connection and try again.", 0);
        return new Blob(["page"], { type: "image/webp" });
      },
      text: async () => {
        if (!online) throw new ReaderApiError("Network error: check your connection and try again.", 0);
        return { runs: [] } as never;
      },
      createUrl: () => "blob:page-1",
      revokeUrl: () => {},
    });
    const { container } = render(
      <PageImage
        store={store}
        info={{ n: 1, width: 600, height: 800 }}
        pageCount={3}
        scale={1}
        imageWidth={1024}
        fluid={false}
        firstWidth={1024}
        active
        onLoaded={() => {}}
      />,
    );
    expect(await screen.findByRole("status")).toHaveProperty("textContent", PAGE_OFFLINE_TEXT);
    // The sentence is in the DOM at React's commit; the page listens for "online" in an effect that
    // runs after it. Under load the event was sent between the two and never heard (a full run
    // timed out at 5 s): let the effects run first.
    await act(async () => {});

    online = true;
    await act(async () => void window.dispatchEvent(new Event("online")));
    await waitFor(() => expect(container.querySelector("img")?.getAttribute("src")).toBe("blob:page-1"), { timeout: 5_000 });
    expect(screen.queryByText(PAGE_OFFLINE_TEXT)).toBeNull();
  });
});
