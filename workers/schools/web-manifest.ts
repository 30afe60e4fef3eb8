import type { School } from "../db/schema.ts";

/**
 * The installable app's manifest for one school (docs/decisions/0049): it opens on the school's
 * dashboard, in its own window. Colours are the app's Tailwind theme (indigo-600 for the bar,
 * slate-50 behind the first paint), as sRGB hex because not every browser reads oklch in a
 * manifest; tests/node/web-manifest.test.ts checks them against Tailwind's own values.
 */
export const THEME_COLOUR = "#4f39f6";
export const BACKGROUND_COLOUR = "#f8fafc";

/** The icons in public/icons/, made by scripts/app-icons.ts from public/favicon.svg. */
export const APP_ICONS = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;

export const MANIFEST_FILE = "manifest.webmanifest";

/** Where a school's manifest is served: beside its pages (`/schools/{slug}/…` or its subdomain's root). */
export const manifestPath = (basePath: string) => `${basePath}/${MANIFEST_FILE}`;

export function webManifest(school: Pick<School, "name">, basePath: string) {
  const dashboard = `${basePath}/dashboard`;
  return {
    // One app per school: a teacher of two schools installs two, each opening on its own dashboard.
    id: dashboard,
    name: `${school.name} · Lectern`,
    short_name: "Lectern",
    description: `Read the books assigned to ${school.name}, online and, for the books you keep, offline.`,
    lang: "en",
    start_url: dashboard,
    // The sign-in page (`/schools/{slug}`) is inside, so signing in again stays in the app's window.
    scope: basePath || "/",
    display: "standalone",
    theme_color: THEME_COLOUR,
    background_color: BACKGROUND_COLOUR,
    icons: APP_ICONS,
  };
}
