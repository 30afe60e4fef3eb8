/**
 * Where a sign-in may send someone back to: `target` when it is a path of this site inside
 * `within` (a school's pages, the admin area), else `fallback`. Never another site ("//host",
 * "/\host", "https://..."), never another school.
 */
export function redirectTarget(target: string | null | undefined, within: string, fallback: string): string {
  if (!target?.startsWith("/") || target.startsWith("//") || target.includes("\\")) return fallback;
  return target === within || target.startsWith(`${within}/`) ? target : fallback;
}
