/** The spec's card category: 'Standard {grade}', else the subject, else 'Uncategorized'. */
export function bookCategory(book: { gradeLevel: number | null; subject: string | null }): string {
  if (book.gradeLevel !== null && book.gradeLevel !== undefined) return `Standard ${book.gradeLevel}`;
  return book.subject?.trim() || "Uncategorized";
}

/**
 * Where a book's cover is served, versioned by the book's last change so browsers can keep it long
 * and still see a replaced cover at once; null when the book has no cover.
 */
export function coverPath(book: { id: number; coverKey: string | null; updatedAt?: number | null; createdAt: number }): string | null {
  return book.coverKey ? `/api/books/${book.id}/thumbnail?v=${book.updatedAt ?? book.createdAt}` : null;
}

/**
 * The widths (px) at which every cover is also stored, as WebP: what the book grid needs at DPR 1
 * and 2. Its covers are 162-252 CSS px wide from a 390 px phone to a 1920 px screen (measured in
 * Chromium; decision 0023), so 256 serves every DPR 1 screen and 512 every DPR 2 one.
 */
export const COVER_WIDTHS = [256, 512] as const;
export type CoverWidth = (typeof COVER_WIDTHS)[number];

/** The cover at one of COVER_WIDTHS, from a coverPath (which already carries `?v=`). */
export function coverWidthPath(path: string, width: CoverWidth): string {
  return `${path}${path.includes("?") ? "&" : "?"}w=${width}`;
}

/** A srcset of the cover's renditions, for the browser to pick by the image's box and the screen's DPR. */
export function coverSrcSet(path: string): string {
  return COVER_WIDTHS.map((width) => `${coverWidthPath(path, width)} ${width}w`).join(", ");
}
