import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ThemeToggle } from "../../app/components/ui/theme-toggle.tsx";
import { THEME_INIT_SCRIPT, THEME_STORAGE_KEY } from "../../app/lib/theme.ts";

describe("theme", () => {
  it("toggles the dark class and stores the choice under vite-ui-theme", async () => {
    render(<ThemeToggle />);
    await userEvent.click(screen.getByRole("button", { name: "Switch to dark theme" }));
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    await userEvent.click(screen.getByRole("button", { name: "Switch to light theme" }));
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
  });

  it("the head script applies a stored dark theme and defaults to light", () => {
    // biome-ignore lint/security/noGlobalEval: runs the exact inline script the page ships
    eval(THEME_INIT_SCRIPT);
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    // biome-ignore lint/security/noGlobalEval: as above
    eval(THEME_INIT_SCRIPT);
    expect(document.documentElement.classList.contains("dark")).toBe(true);
  });
});
