import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SlugField } from "../../app/components/admin/slug-field.tsx";
import { renderInApp } from "./render.tsx";

afterEach(() => vi.unstubAllGlobals());

function Form() {
  const [slug, setSlug] = useState("");
  return <SlugField value={slug} onChange={setSlug} />;
}

const check = () => document.getElementById("school-slug-check")!;

describe("SlugField on Add School", () => {
  it("says at once when the format is wrong or the word is reserved, without asking the server", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderInApp(<Form />);
    await userEvent.type(screen.getByLabelText("Portal address (slug)"), "admin");
    expect(check().textContent).toBe("This slug is reserved");
    expect(check().dataset.tone).toBe("error");
    await userEvent.clear(screen.getByLabelText("Portal address (slug)"));
    await userEvent.type(screen.getByLabelText("Portal address (slug)"), "-bad");
    expect(check().dataset.tone).toBe("error");
    await new Promise((r) => setTimeout(r, 400));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("asks the server once typing stops, and says whether a school has the address", async () => {
    const fetchMock = vi.fn(async (url: string) =>
      Response.json(
        url.endsWith("slug=lincoln-high") ? { available: false, reason: "taken", suggestion: "lincoln-high-2" } : { available: true },
      ),
    );
    vi.stubGlobal("fetch", fetchMock);
    renderInApp(<Form />);
    const input = screen.getByLabelText("Portal address (slug)");
    await userEvent.type(input, "lincoln-high");
    await vi.waitFor(() => expect(check().dataset.tone).toBe("error"));
    expect(check().textContent).toBe("/lincoln-high belongs to another school already. Choose another address.");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    // Debounced: one request for the settled value, not one per keystroke.
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // One click takes the free address the server found.
    await userEvent.click(screen.getByRole("button", { name: "Use lincoln-high-2" }));
    expect((input as HTMLInputElement).value).toBe("lincoln-high-2");
    await vi.waitFor(() => expect(check().dataset.tone).toBe("ok"));

    await userEvent.clear(input);
    await userEvent.type(input, "maple-ridge");
    await vi.waitFor(() => expect(check().dataset.tone).toBe("ok"));
    expect(check().textContent).toBe("Free: teachers will use /maple-ridge or maple-ridge.<your domain>");
  });
});
