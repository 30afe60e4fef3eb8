export const THEME_STORAGE_KEY = "vite-ui-theme";

export type Theme = "light" | "dark";

/**
 * Runs before the first paint (inline in <head>) so a dark-theme reader never sees a white flash.
 * Light is the default; "system" is honoured for values stored by older clients.
 */
export const THEME_INIT_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=t==="dark"||(t==="system"&&matchMedia("(prefers-color-scheme: dark)").matches);var r=document.documentElement;r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light"}catch(e){}})();`;

/**
 * The theme toggle on pages that do not hydrate (the landing and login pages): one delegated
 * click handler doing what <ThemeToggle> and applyTheme() do in the app. Placed at the end of
 * <body>, so the buttons exist when it labels them.
 */
export const THEME_TOGGLE_SCRIPT = `(function(){var r=document.documentElement;function label(){var d=r.classList.contains("dark"),l=d?"Switch to light theme":"Switch to dark theme";document.querySelectorAll("[data-theme-toggle]").forEach(function(b){b.setAttribute("aria-label",l);b.title=l;b.setAttribute("data-theme-state",d?"dark":"light")})}document.addEventListener("click",function(e){var b=e.target instanceof Element&&e.target.closest("[data-theme-toggle]");if(!b)return;var d=!r.classList.contains("dark");r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light";try{localStorage.setItem(${JSON.stringify(THEME_STORAGE_KEY)},d?"dark":"light")}catch(e){}label()});label()})();`;

export function readTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private mode or storage disabled: the choice lasts for this page only.
  }
}
