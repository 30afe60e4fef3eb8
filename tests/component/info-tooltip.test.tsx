import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BookCard } from "../../app/components/school/book-card.tsx";
import { InfoTooltip, TOOLTIP_CLOSE_DELAY_MS } from "../../app/components/school/info-tooltip.tsx";
import type { TeacherBook } from "../../workers/reading/library.ts";
import { renderInApp } from "./render.tsx";

afterEach(() => {
  vi.useRealTimers();
});

/** What Chromium sends for a tap on a touch screen: touch pointer events, then the emulated mouse, focus and click. */
function tap(element: HTMLElement) {
  const touch = { pointerType: "touch", isPrimary: true };
  fireEvent.pointerEnter(element, touch);
  fireEvent.pointerDown(element, touch);
  fireEvent.pointerUp(element, touch);
  fireEvent.pointerLeave(element, touch);
  fireEvent.mouseEnter(element);
  fireEvent.mouseMove(element);
  fireEvent.mouseDown(element);
  element.focus();
  fireEvent.mouseUp(element);
  fireEvent.click(element);
}

const mouse = { pointerType: "mouse", isPrimary: true };
const hover = (element: HTMLElement) => {
  fireEvent.pointerEnter(element, mouse);
  fireEvent.mouseEnter(element);
};
const unhover = (element: HTMLElement) => {
  fireEvent.pointerLeave(element, mouse);
  fireEvent.mouseLeave(element);
};
/** A mouse click on a button the pointer is already over. */
function click(element: HTMLElement) {
  fireEvent.pointerDown(element, mouse);
  fireEvent.mouseDown(element);
  element.focus();
  fireEvent.pointerUp(element, mouse);
  fireEvent.mouseUp(element);
  fireEvent.click(element);
}

function renderTooltip() {
  render(
    <>
      <InfoTooltip id="about-1" label="About Algebra I">
        Linear equations and graphs.
      </InfoTooltip>
      <p>Elsewhere</p>
    </>,
  );
  return {
    button: screen.getByRole("button", { name: "About Algebra I" }),
    tooltip: () => screen.queryByRole("tooltip"),
  };
}

describe("the book description tooltip", () => {
  it("a tap on a touch screen opens it, and the next tap closes it", () => {
    const { button, tooltip } = renderTooltip();
    tap(button);
    expect(tooltip()?.textContent).toBe("Linear equations and graphs.");
    expect(button.getAttribute("aria-expanded")).toBe("true");
    tap(button);
    expect(tooltip()).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("after a tap, mouse-type hover events the browser emulates do not close or reopen it", () => {
    const { button, tooltip } = renderTooltip();
    tap(button);
    vi.useFakeTimers();
    hover(button);
    unhover(button);
    vi.advanceTimersByTime(TOOLTIP_CLOSE_DELAY_MS + 50);
    expect(tooltip()).not.toBeNull();
  });

  it("a tap elsewhere closes what a tap opened", () => {
    const { button, tooltip } = renderTooltip();
    tap(button);
    fireEvent.pointerDown(screen.getByText("Elsewhere"), { pointerType: "touch" });
    expect(tooltip()).toBeNull();
  });

  it("with a mouse, hover opens it and it closes 300 ms after the pointer leaves", () => {
    vi.useFakeTimers();
    const { button, tooltip } = renderTooltip();
    hover(button);
    expect(tooltip()).not.toBeNull();
    unhover(button);
    act(() => vi.advanceTimersByTime(TOOLTIP_CLOSE_DELAY_MS - 50));
    expect(tooltip()).not.toBeNull();
    // Reaching the tooltip itself keeps it open.
    hover(screen.getByRole("tooltip"));
    act(() => vi.advanceTimersByTime(TOOLTIP_CLOSE_DELAY_MS));
    expect(tooltip()).not.toBeNull();
    unhover(screen.getByRole("tooltip"));
    act(() => vi.advanceTimersByTime(TOOLTIP_CLOSE_DELAY_MS));
    expect(tooltip()).toBeNull();
  });

  it("with a mouse, clicking (i) after hovering keeps it open, and the next click closes it", () => {
    vi.useFakeTimers();
    const { button, tooltip } = renderTooltip();
    hover(button);
    click(button);
    expect(tooltip()).not.toBeNull();
    // Pinned by the click: leaving does not close it.
    unhover(button);
    act(() => vi.advanceTimersByTime(TOOLTIP_CLOSE_DELAY_MS + 50));
    expect(tooltip()).not.toBeNull();
    hover(button);
    click(button);
    expect(tooltip()).toBeNull();
  });

  it("opens on keyboard focus, toggles with Enter, and Escape closes it", async () => {
    const { button, tooltip } = renderTooltip();
    await userEvent.tab();
    expect(document.activeElement).toBe(button);
    expect(tooltip()).not.toBeNull();
    await userEvent.keyboard("{Escape}");
    expect(tooltip()).toBeNull();
    await userEvent.keyboard("{Enter}");
    expect(tooltip()).not.toBeNull();
    await userEvent.keyboard("{Enter}");
    expect(tooltip()).toBeNull();
  });
});

describe("BookCard", () => {
  const book = {
    id: 7,
    title: "Algebra I",
    author1: "Ann Lee",
    author2: null,
    description: "Linear equations and graphs.",
    isbn: null,
    gradeLevel: 9,
    subject: "Mathematics",
    pageCount: 120,
    thumbnailPath: null,
    hasPdf: true,
    readable: true,
    createdAt: 0,
  } as unknown as TeacherBook;

  it("a tap on (i) opens the description, and a mouse click after hovering leaves it open", () => {
    renderInApp(<BookCard book={book} href="/schools/lincoln-high/dashboard/book/7" />);
    const button = screen.getByRole("button", { name: "About Algebra I" });
    tap(button);
    expect(screen.getByRole("tooltip").textContent).toBe("Linear equations and graphs.");
    tap(button);
    expect(screen.queryByRole("tooltip")).toBeNull();

    fireEvent.blur(button);
    hover(button);
    click(button);
    expect(screen.getByRole("tooltip").textContent).toBe("Linear equations and graphs.");
  });
});
