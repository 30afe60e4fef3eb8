import type { CSSProperties } from "react";
import type { LineSpacing, ReadingFont, ReadingSettings, ReadingTheme, TextSize } from "#shared/rules/reading-settings.ts";

/**
 * How the Text view looks in each reading setting. Written out class by class, so Tailwind finds
 * every one in this file; an explicit theme names no `dark:` class, so a light or sepia Text view
 * stays so in the app's dark theme (and a dark one in its light theme).
 */

type ThemeClasses = {
  /** The view's background and text. */
  surface: string;
  /** Secondary text: the page heading, "no text". */
  muted: string;
  /** The page links at the foot of the text. */
  link: string;
  /** Rules and borders. */
  rule: string;
  /** The sentence being read aloud. */
  reading: string;
  /** The paragraph read-aloud starts at. */
  start: string;
  /** A search match. */
  match: string;
  /** The bar and the settings panel over the text. */
  bar: string;
  colorScheme?: CSSProperties["colorScheme"];
};

export const THEME_CLASSES: Record<ReadingTheme, ThemeClasses> = {
  auto: {
    surface: "bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100",
    muted: "text-slate-500 dark:text-slate-400",
    link: "text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-white/10",
    rule: "border-slate-200 dark:border-slate-800",
    reading:
      "bg-indigo-100 underline decoration-indigo-500 decoration-2 underline-offset-4 dark:bg-indigo-400/25 dark:decoration-indigo-300",
    start: "border-indigo-400 dark:border-indigo-300",
    match: "bg-amber-200 text-inherit dark:bg-amber-300/40",
    bar: "border-slate-200 bg-slate-50 text-slate-900 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100",
  },
  light: {
    surface: "bg-white text-slate-900",
    muted: "text-slate-500",
    link: "text-indigo-700 hover:bg-indigo-50",
    rule: "border-slate-200",
    reading: "bg-indigo-100 underline decoration-indigo-500 decoration-2 underline-offset-4",
    start: "border-indigo-400",
    match: "bg-amber-200 text-inherit",
    bar: "border-slate-200 bg-slate-50 text-slate-900",
    colorScheme: "light",
  },
  dark: {
    surface: "bg-slate-950 text-slate-100",
    muted: "text-slate-400",
    link: "text-indigo-300 hover:bg-white/10",
    rule: "border-slate-800",
    reading: "bg-indigo-400/25 underline decoration-indigo-300 decoration-2 underline-offset-4",
    start: "border-indigo-300",
    match: "bg-amber-300/40 text-inherit",
    bar: "border-slate-800 bg-slate-900 text-slate-100",
    colorScheme: "dark",
  },
  // Dark brown on warm paper: 11:1, and the muted brown 5.8:1 (WCAG AA needs 4.5:1).
  sepia: {
    surface: "bg-[#f6efdc] text-[#3f3222]",
    muted: "text-[#6b5a42]",
    link: "text-[#7a4510] hover:bg-[#ecdfc0]",
    rule: "border-[#e0d3b4]",
    reading: "bg-[#ead9a6] underline decoration-[#8a5a1c] decoration-2 underline-offset-4",
    start: "border-[#b08440]",
    match: "bg-amber-300/60 text-inherit",
    bar: "border-[#e0d3b4] bg-[#efe5cb] text-[#3f3222]",
    colorScheme: "light",
  },
};

export const SIZE_CLASSES: Record<TextSize, string> = {
  small: "text-base",
  medium: "text-lg",
  large: "text-xl",
  "x-large": "text-2xl",
  "xx-large": "text-3xl",
};

export const SPACING_CLASSES: Record<LineSpacing, string> = {
  normal: "leading-relaxed",
  wide: "leading-loose",
  wider: "leading-[2.5]",
};

export const FONT_CLASSES: Record<ReadingFont, string> = {
  standard: "",
  // OpenDyslexic's letters are wide: a little more space between words keeps them apart.
  dyslexic: "font-['OpenDyslexic',ui-sans-serif,sans-serif] [word-spacing:0.12em]",
};

/** The article's classes for `settings`: its size, spacing and font. */
export function textClasses(settings: ReadingSettings): string {
  return [SIZE_CLASSES[settings.textSize], SPACING_CLASSES[settings.lineSpacing], FONT_CLASSES[settings.font]].filter(Boolean).join(" ");
}
