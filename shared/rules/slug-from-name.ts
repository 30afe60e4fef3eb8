/**
 * A URL- and DNS-safe slug from a school's name ("St. Mary's High" -> "st-marys-high"), at most
 * `maxLength` characters. Dependency-free: the admin form suggests with it, the server generates with it.
 */
export function slugFromName(name: string, maxLength = 63): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}
