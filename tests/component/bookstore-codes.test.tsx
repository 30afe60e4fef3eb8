import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, data } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { MadeCodes, madeMessage } from "../../app/components/admin/codes/made-codes.tsx";
import { RedeemCode } from "../../app/components/school/redeem-code.tsx";

// Issue 46: the codes shown once after a batch is made (the CSV made in the browser, the printable
// cards, the warning before leaving), and the "Redeem a bookstore code" card.

const BATCH = {
  id: 12,
  label: "City Bookstore",
  books: [{ id: 3, title: "Counting Creatures" }],
  days: 365,
  endsOn: null,
  seats: 30,
  offlineAllowed: true,
  offlineDays: 14,
  redeemBy: "2027-06-30",
};
const CODES = Array.from({ length: 12 }, (_, i) => `LECT-AAAA-BBBB-CCCC-DD${"23456789ABCD"[i]}Z`);

function Made() {
  return <MadeCodes batch={BATCH} codes={CODES} publisher="Lectern Press" />;
}

function Card() {
  return <RedeemCode who="coordinator" next={{ to: "/books", label: "Open the library" }} />;
}

function renderMade() {
  const Stub = createRoutesStub([{ path: "/", Component: Made }]);
  render(<Stub initialEntries={["/"]} />);
}

const leaving = () => {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe("the codes just made", () => {
  it("says they are shown only now, and warns before leaving until the CSV is downloaded; the CSV has every code", async () => {
    renderMade();
    expect(await screen.findByText(madeMessage(12))).toBeTruthy();
    expect(madeMessage(12)).toBe("12 codes made. They are shown only now: download the CSV or print the cards before you leave this page.");
    expect(leaving()).toBe(true);

    let saved: Blob | null = null;
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      saved = blob as Blob;
      return "blob:codes";
    });
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    await userEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    expect(saved).not.toBeNull();
    const lines = (await saved!.text()).split("\r\n");
    expect(lines[0]).toBe("\uFEFFcode,batchId,label,books,redeemBy");
    expect(lines[1]).toBe(`${CODES[0]},12,City Bookstore,Counting Creatures,2027-06-30`);
    expect(lines.filter((line) => line.startsWith("LECT-"))).toHaveLength(12);
    expect(leaving()).toBe(false);
  });

  it("prints cards ten a sheet: the publisher, the book, the code, where to redeem it and until when", async () => {
    renderMade();
    await userEvent.click(await screen.findByRole("button", { name: "Print cards" }));
    const view = screen.getByRole("dialog", { name: "Printable cards: 12 codes on 2 A4 sheets" });
    const sheets = within(view).getAllByRole("region");
    expect(sheets.map((sheet) => sheet.getAttribute("aria-label"))).toEqual(["Sheet 1 of 2", "Sheet 2 of 2"]);
    expect(sheets.map((sheet) => sheet.querySelectorAll("article").length)).toEqual([10, 2]);
    const card = sheets[0]!.querySelector("article")!;
    expect(card.textContent).toContain("Lectern Press");
    expect(card.textContent).toContain("Counting Creatures");
    expect(card.textContent).toContain(CODES[0]);
    expect(card.textContent).toContain("Redeem on your school's Lectern: My school → Redeem a code");
    expect(card.textContent).toContain("Redeem by Jun 30, 2027");
    // The page behind is inert while the view is open; Escape closes it.
    const behind = [...document.body.children].filter((element) => element.id !== "code-cards-print");
    expect(behind.length).toBeGreaterThan(0);
    expect(behind.every((element) => element.hasAttribute("inert"))).toBe(true);
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: /Printable cards/ })).toBeNull();
  });
});

describe("redeem a bookstore code", () => {
  function renderCard(answers: Array<object>) {
    const posted = vi.fn();
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: Card,
        action: async ({ request }) => {
          posted(Object.fromEntries(await request.formData()));
          const answer = answers.shift()!;
          return "error" in answer ? data(answer, { status: 409 }) : answer;
        },
      },
    ]);
    render(<Stub initialEntries={["/"]} />);
    return posted;
  }

  it("shows a refusal at the field (marked, described, focused), then the redemption's sentence and an empty field", async () => {
    const posted = renderCard([
      { intent: "redeem-code", error: "This code has already been redeemed." },
      {
        intent: "redeem-code",
        message: "Code redeemed: “Counting Creatures” is licensed to your school until Jul 31, 2027, for 30 readers at once.",
      },
    ]);
    const field = await screen.findByRole("textbox", { name: "Code" });
    expect(field.getAttribute("aria-describedby")).toBe("redeem-code-input-hint");
    expect(document.getElementById("redeem-code-input-hint")?.textContent).toBe("As printed on the card: LECT-XXXX-XXXX-XXXX-XXXX");
    await userEvent.type(field, "lect-aaaa-bbbb-cccc-dddd{Enter}");
    await vi.waitFor(() => expect(posted).toHaveBeenCalledWith({ intent: "redeem-code", code: "lect-aaaa-bbbb-cccc-dddd" }));
    expect(await screen.findByText("This code has already been redeemed.")).toBeTruthy();
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")).toBe("redeem-code-input-error redeem-code-input-hint");
    expect(document.activeElement).toBe(field);

    await userEvent.click(screen.getByRole("button", { name: "Redeem" }));
    expect(await screen.findByRole("status")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("Code redeemed: “Counting Creatures”");
    expect((field as HTMLInputElement).value).toBe("");
    expect(screen.getByRole("link", { name: "Open the library" }).getAttribute("href")).toBe("/books");
    expect(field.getAttribute("aria-invalid")).toBeNull();
  });
});
