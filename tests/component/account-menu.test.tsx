import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AccountMenu } from "../../app/components/school/account-menu.tsx";
import { SchoolShell } from "../../app/components/school/school-shell.tsx";
import { renderInApp } from "./render.tsx";
import { LINCOLN_HIGH } from "./school-dialogs.tsx";

const school = LINCOLN_HIGH;

function renderMenu() {
  return renderInApp(
    <div>
      <AccountMenu teacherName="Ada Lovelace" basePath="/schools/lincoln-high" />
      <button type="button">Elsewhere</button>
    </div>,
    {
      path: "/schools/lincoln-high/dashboard",
      routes: {
        "/schools/lincoln-high/account": <h1>Account page</h1>,
        "/schools/lincoln-high": <h1>Login page</h1>,
      },
    },
  );
}

const trigger = () => screen.getByRole("button", { name: "Account menu for Ada Lovelace" });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the avatar menu", () => {
  it("is a labelled menu button showing the initials, closed at first", () => {
    renderMenu();
    const button = trigger();
    expect(button.querySelector("[aria-hidden=true]")?.textContent).toBe("AL");
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it.each(["{Enter}", " "])("opens with %s on the first item, and Escape closes it and gives focus back", async (key) => {
    const user = userEvent.setup();
    renderMenu();
    trigger().focus();
    await user.keyboard(key);
    const menu = screen.getByRole("menu", { name: "Account menu for Ada Lovelace" });
    expect(trigger().getAttribute("aria-expanded")).toBe("true");
    expect(trigger().getAttribute("aria-controls")).toBe(menu.id);
    expect(menu.textContent).toContain("Ada Lovelace");
    const items = screen.getAllByRole("menuitem");
    expect(items.map((item) => item.textContent)).toEqual(["My account", "Sign out"]);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(trigger().getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(trigger());
  });

  it("moves between the items with the arrows, Home and End, wrapping around", async () => {
    const user = userEvent.setup();
    renderMenu();
    trigger().focus();
    await user.keyboard("{ArrowUp}");
    const [account, signOut] = screen.getAllByRole("menuitem");
    await waitFor(() => expect(document.activeElement).toBe(signOut));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(account);
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(signOut);
    await user.keyboard("{Home}");
    expect(document.activeElement).toBe(account);
    await user.keyboard("{End}");
    expect(document.activeElement).toBe(signOut);
    // Items are reached with the arrows, not with Tab: only the focused one is in the tab order.
    for (const item of [account, signOut]) expect(item!.getAttribute("tabindex")).toBe("-1");
  });

  it("Enter on 'My account' goes to the account page", async () => {
    const user = userEvent.setup();
    renderMenu();
    trigger().focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(document.activeElement?.textContent).toBe("My account"));
    await user.keyboard("{Enter}");
    expect(await screen.findByRole("heading", { name: "Account page" })).toBeTruthy();
  });

  it("'Sign out' ends the session through the API and goes to the school's login page", async () => {
    const fetchMock = vi.fn(async () => Response.json({ ok: true }));
    vi.stubGlobal("fetch", fetchMock);
    localStorage.setItem("teacherName", "Ada Lovelace");
    const user = userEvent.setup();
    renderMenu();
    await user.click(trigger());
    await user.click(screen.getByRole("menuitem", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeTruthy();
    expect(String((fetchMock.mock.calls[0] as unknown[] | undefined)?.[0])).toContain("/api/teacher/sign-out");
    expect(localStorage.getItem("teacherName")).toBeNull();
  });

  it("closes on Tab, and on a click elsewhere, without stealing focus", async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(trigger());
    expect(screen.getByRole("menu")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Elsewhere" }));

    trigger().focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(document.activeElement?.textContent).toBe("My account"));
    await user.tab();
    expect(screen.queryByRole("menu")).toBeNull();
    // A second click on the button closes it as well.
    await user.click(trigger());
    await user.click(trigger());
    expect(screen.queryByRole("menu")).toBeNull();
  });
});

describe("the school layout", () => {
  it("starts with a skip link to the main content", async () => {
    const user = userEvent.setup();
    renderInApp(
      <SchoolShell school={school} teacherName="Ada Lovelace" basePath="/schools/lincoln-high">
        <h1>Books Library</h1>
      </SchoolShell>,
      { path: "/schools/lincoln-high/dashboard" },
    );
    await user.tab();
    const skip = screen.getByRole("link", { name: "Skip to main content" });
    expect(document.activeElement).toBe(skip);
    const target = document.getElementById(skip.getAttribute("href")!.slice(1));
    expect(target?.tagName).toBe("MAIN");
    expect(target?.getAttribute("tabindex")).toBe("-1");
    expect(target?.textContent).toContain("Books Library");
    // On a phone the greeting is hidden; the avatar button names the teacher.
    expect(screen.getByRole("button", { name: "Account menu for Ada Lovelace" })).toBeTruthy();
  });
});
