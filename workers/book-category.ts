/** The spec's card category: 'Standard {grade}', else the subject, else 'Uncategorized'. */
export function bookCategory(book: { gradeLevel: number | null; subject: string | null }): string {
  if (book.gradeLevel !== null && book.gradeLevel !== undefined) return `Standard ${book.gradeLevel}`;
  return book.subject?.trim() || "Uncategorized";
}
