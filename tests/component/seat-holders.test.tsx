import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, useLoaderData } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { type HeldSeatRow, SeatHolders } from "../../app/components/admin/school/seat-holders.tsx";

// Issue 41 item 7: who holds the seats of a school's seat-limited books, on the admin's school page
// and the coordinator's My school, with "Free seat" asking first.

const HAL: HeldSeatRow = {
  bookId: 4,
  title: "Rivers of the World",
  seats: 2,
  held: 2,
  teacherId: 11,
  name: "Hal Holder",
  email: "hal@school.test",
  lastAt: Date.UTC(2026, 10, 28, 15, 0),
};
const IVY: HeldSeatRow = { ...HAL, teacherId: 12, name: "Ivy Reader", email: "ivy@school.test" };

function Page() {
  const { seats } = useLoaderData() as { seats: HeldSeatRow[] };
  return <SeatHolders seats={seats} />;
}

/** The table on a page whose loader lists `seats` (then what the action left) and whose action frees one. */
function renderPage(seats: HeldSeatRow[]) {
  let held = [...seats];
  const posted = vi.fn();
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: Page,
      loader: () => ({ seats: held }),
      action: async ({ request }) => {
        const form = Object.fromEntries(await request.formData());
        posted(form);
        held = held.filter((s) => String(s.teacherId) !== form.teacherId);
        return { intent: "seat-free", message: "Freed Hal Holder's seat of Rivers of the World." };
      },
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  return posted;
}

describe("who holds the seats", () => {
  it("is a table a screen reader can read by row: the book, seats in use, the teacher, and a named Free seat button", async () => {
    renderPage([HAL, IVY]);
    const table = await screen.findByRole("table", { name: "Teachers holding a seat of a book with a seat limit, by book" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Book", "Seats in use", "Teacher", "E-mail", "Last page read", "Action"]);
    const [, first] = within(table).getAllByRole("row");
    expect(within(first!).getByRole("rowheader").textContent).toBe("Rivers of the World");
    expect(within(first!).getByText("2 of 2")).toBeTruthy();
    expect(within(table).getByRole("button", { name: "Free Hal Holder's seat of Rivers of the World" })).toBeTruthy();
    expect(within(table).getByRole("button", { name: "Free Ivy Reader's seat of Rivers of the World" })).toBeTruthy();
  });

  it("asks first; Cancel posts nothing; confirming frees the seat, says so and the row goes", async () => {
    const posted = renderPage([HAL, IVY]);
    const free = await screen.findByRole("button", { name: "Free Hal Holder's seat of Rivers of the World" });
    expect(free.getAttribute("aria-haspopup")).toBe("dialog");
    await userEvent.click(free);
    const dialog = screen.getByRole("dialog", { name: "Free Hal Holder's seat of Rivers of the World?" });
    expect(dialog.textContent).toContain("Hal Holder (hal@school.test) holds one of the 2 seats of this book.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(posted).not.toHaveBeenCalled();

    await userEvent.click(free);
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Free seat" }));
    await vi.waitFor(() => expect(posted).toHaveBeenCalledWith({ intent: "seat-free", bookId: "4", teacherId: "11" }));
    expect(await screen.findByText("Freed Hal Holder's seat of Rivers of the World.")).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByText("Hal Holder")).toBeNull());
    expect(screen.getByText("Ivy Reader")).toBeTruthy();
  });

  it("says when no one holds a seat", async () => {
    renderPage([]);
    expect(await screen.findByText("No one holds a seat of a book with a seat limit right now.")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });
});
