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
