// The spec keeps the signed-in teacher's name in localStorage for the header greeting; the
// session cookie is what grants access, this is only a convenience for the first paint.
const KEY = "teacherName";
export const DEFAULT_TEACHER_NAME = "Demo Teacher";

export function rememberTeacherName(name: string): void {
  try {
    localStorage.setItem(KEY, name);
  } catch {
    // Storage disabled: the greeting falls back to the name the server sends.
  }
}

export function forgetTeacherName(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {}
}

/** A school's monogram: the first letters of its first two distinctive words ("Lincoln High School" -> "LH"). */
export function schoolInitials(name: string): string {
  const words = name.split(/\s+/).filter((w) => w && !/^(the|of|school|and|&)$/i.test(w));
  return (
    words
      .slice(0, 2)
      .map((w) => [...w][0]?.toUpperCase() ?? "")
      .join("") || "?"
  ).slice(0, 2);
}

/** Up to two initials for the avatar: "Ada Lovelace" -> "AL", "Plato" -> "P". */
export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => [...word][0]?.toUpperCase() ?? "");
  return (letters.length > 1 ? letters[0]! + letters[letters.length - 1]! : (letters[0] ?? "")).slice(0, 2) || "?";
}
