import { z } from "zod";

/**
 * Words that can never be a school slug: they are (or may become) top-level routes,
 * subdomains with another meaning, or names a school could use to impersonate the product.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  "about",
  "account",
  "accounts",
  "admin",
  "administrator",
  "api",
  "app",
  "assets",
  "auth",
  "billing",
  "blog",
  "book",
  "books",
  "build",
  "cdn",
  "contact",
  "dashboard",
  "demo",
  "dev",
  "docs",
  "download",
  "downloads",
  "email",
  "files",
  "ftp",
  "health",
  "help",
  "home",
  "images",
  "img",
  "join",
  "lectern",
  "limit-reached",
  "login",
  "logout",
  "mail",
  "media",
  "new",
  // The offline app's page on a school's subdomain (docs/decisions/0049).
  "offline",
  "pdf",
  "pdf-viewer",
  "pricing",
  "privacy",
  "public",
  "register",
  "reset",
  "root",
  "school",
  "schools",
  "search",
  "security",
  "settings",
  "signin",
  "signout",
  "signup",
  "smtp",
  "staging",
  "static",
  "status",
  "superadmin",
  "support",
  "system",
  "teacher",
  "teachers",
  "terms",
  "test",
  "www",
]);

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A school slug: a valid DNS label (so it also works as a subdomain) that is not reserved. */
export const SlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "A slug needs at least 2 characters")
  .max(63, "A slug can have at most 63 characters")
  .regex(SLUG_PATTERN, "Use lower-case letters, digits and single hyphens, not at the start or end")
  .refine((s) => !s.includes("--"), "A slug cannot contain two hyphens in a row")
  .refine((s) => !RESERVED_SLUGS.has(s), "This slug is reserved");

export function isValidSlug(slug: string): boolean {
  return SlugSchema.safeParse(slug).success && slug === slug.toLowerCase();
}
