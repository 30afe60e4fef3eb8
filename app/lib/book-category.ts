type Categorised = { subject: string | null; gradeLevel: number | null };

/** The filter chips: every distinct subject (A-Z), then every 'Standard {grade}' (1-12). */
export function categoryChips(groups: Categorised[]): string[] {
  const subjects = new Set<string>();
  const grades = new Set<number>();
  for (const book of groups) {
    if (book.subject?.trim()) subjects.add(book.subject.trim());
    if (book.gradeLevel !== null) grades.add(book.gradeLevel);
  }
  return [...[...subjects].sort((x, y) => x.localeCompare(y)), ...[...grades].sort((x, y) => x - y).map((g) => `Standard ${g}`)];
}

/** How many books a chip stands for, from the shelf's (subject, grade) counts. */
export function chipCount(groups: (Categorised & { count: number })[], chip: string): number {
  return groups.filter((group) => inCategory(group, chip)).reduce((n, group) => n + group.count, 0);
}

/** Whether a book belongs under a chip: its subject, or its standard. */
export function inCategory(book: Categorised, chip: string): boolean {
  return book.subject?.trim() === chip || (book.gradeLevel !== null && `Standard ${book.gradeLevel}` === chip);
}

/** The dashboard's instant filter: every word must appear in the title, authors, subject, ISBN or description. */
export function matchesText(
  book: Categorised & { title: string; author1: string; author2: string | null; isbn: string | null; description: string },
  text: string,
): boolean {
  const haystack = [book.title, book.author1, book.author2, book.subject, book.isbn, book.isbn?.replace(/-/g, ""), book.description]
    .filter(Boolean)
    .join(" ")
    .toLocaleLowerCase();
  return text
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
