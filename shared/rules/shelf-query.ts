/**
 * What the teacher's library shows, as it travels in the dashboard's URL
 * (`?subject=&grade=&sort=&q=&mine=1`): read by the page's loader, by the shelf API and by the page
 * itself, so Back and a shared link give the same list. Pure rules, shared by the Worker and the
 * browser.
 */

export const SHELF_SORTS = { title: "Title (A–Z)", added: "Recently added", read: "Recently read" } as const;
export type ShelfSort = keyof typeof SHELF_SORTS;

export interface ShelfQuery {
  /** A subject as books spell it (trimmed), or null for every subject. */
  subject: string | null;
  /** A grade ('Standard {grade}'), or null for every grade. */
  grade: number | null;
  sort: ShelfSort;
  /** The grid's own text filter ('Filter this list'). */
  q: string;
  /** Only the books this teacher starred ('My books'). */
  mine: boolean;
}

export const ALL_BOOKS: ShelfQuery = { subject: null, grade: null, sort: "title", q: "", mine: false };

const MAX_SUBJECT = 100;
export const MAX_FILTER_TEXT = 200;

function isSort(value: string | null): value is ShelfSort {
  return value !== null && Object.hasOwn(SHELF_SORTS, value);
}

/**
 * The query a URL asks for. Lenient: a value that cannot be one (an unknown sort, a grade that is no
 * number, an over-long subject) is ignored, so an old or hand-edited link still opens the library.
 */
export function readShelfQuery(params: URLSearchParams): ShelfQuery {
  const subject = params.get("subject")?.trim() ?? "";
  const grade = params.get("grade")?.trim() ?? "";
  const sort = params.get("sort");
  return {
    subject: subject && subject.length <= MAX_SUBJECT ? subject : null,
    grade: /^\d{1,3}$/.test(grade) ? Number(grade) : null,
    sort: isSort(sort) ? sort : "title",
    q: (params.get("q") ?? "").slice(0, MAX_FILTER_TEXT),
    mine: params.get("mine") === "1",
  };
}

/**
 * The URL's search for a query, defaults left out (`?subject=Science&grade=9`); any other
 * parameter already in `base` is kept.
 */
export function writeShelfQuery(query: ShelfQuery, base = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const key of ["subject", "grade", "sort", "q", "mine"]) params.delete(key);
  if (query.subject) params.set("subject", query.subject);
  if (query.grade !== null) params.set("grade", String(query.grade));
  if (query.sort !== "title") params.set("sort", query.sort);
  if (query.q.trim()) params.set("q", query.q);
  if (query.mine) params.set("mine", "1");
  return params;
}

/** The shelf in numbers, per (subject, grade): what the chips count. */
export interface ShelfGroup {
  subject: string | null;
  gradeLevel: number | null;
  /** Every book of the school in this group. */
  count: number;
  /** Those that match the text filter (all of them without one). */
  matching: number;
  /** Those that match the text filter and that this teacher starred. */
  starred: number;
}

export interface FacetOption<T> {
  value: T;
  label: string;
  count: number;
}

export interface ShelfFacets {
  subjects: FacetOption<string | null>[];
  grades: FacetOption<number | null>[];
  /** 'All Books' and 'My books' within the chosen subject and grade. */
  all: number;
  mine: number;
  /** How many books the list holds: the '{n} book(s) available' badge. */
  shown: number;
}

export const gradeLabel = (grade: number) => `Standard ${grade}`;

const subjectOf = (group: { subject: string | null }) => group.subject?.trim() || null;

/**
 * The filter options and their counts. Each count follows the other active filters: a subject's
 * count is its books within the chosen grade (and among 'My books', and matching the text), a
 * grade's count its books within the chosen subject, 'My books' the starred books of the chosen
 * subject and grade. The options are the whole shelf's subjects (A-Z) and grades (1-12), so they
 * stay put while the teacher types; a chosen value the shelf lacks (an old link) stays listed.
 */
export function shelfFacets(groups: ShelfGroup[], query: Pick<ShelfQuery, "subject" | "grade" | "mine">): ShelfFacets {
  const sum = (keep: (group: ShelfGroup) => boolean, mine = query.mine) =>
    groups.filter(keep).reduce((n, group) => n + (mine ? group.starred : group.matching), 0);
  const subjectOk = (group: ShelfGroup) => query.subject === null || subjectOf(group) === query.subject;
  const gradeOk = (group: ShelfGroup) => query.grade === null || group.gradeLevel === query.grade;

  const subjectNames = new Set<string>();
  const gradeNumbers = new Set<number>();
  for (const group of groups) {
    if (group.count === 0) continue;
    const subject = subjectOf(group);
    if (subject) subjectNames.add(subject);
    if (group.gradeLevel !== null) gradeNumbers.add(group.gradeLevel);
  }
  if (query.subject) subjectNames.add(query.subject);
  if (query.grade !== null) gradeNumbers.add(query.grade);

  return {
    subjects: [
      { value: null, label: "All subjects", count: sum(gradeOk) },
      ...[...subjectNames]
        .sort((x, y) => x.localeCompare(y))
        .map((subject) => ({ value: subject, label: subject, count: sum((g) => gradeOk(g) && subjectOf(g) === subject) })),
    ],
    grades: [
      { value: null, label: "All grades", count: sum(subjectOk) },
      ...[...gradeNumbers]
        .sort((x, y) => x - y)
        .map((grade) => ({ value: grade, label: gradeLabel(grade), count: sum((g) => subjectOk(g) && g.gradeLevel === grade) })),
    ],
    all: sum((g) => subjectOk(g) && gradeOk(g), false),
    mine: sum((g) => subjectOk(g) && gradeOk(g), true),
    shown: sum((g) => subjectOk(g) && gradeOk(g)),
  };
}

/** Lower-cased words without accents, as the search index splits and folds them. */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The text filter as the server applies it (the search index, `toFtsQuery`): every word typed must
 * begin a word of the title, authors, subject, ISBN or description; an ISBN typed with hyphens
 * matches its digits. The page uses it to narrow the list at once while the server's answer is on
 * its way.
 */
export function matchesFilterText(
  book: { title: string; author1: string; author2: string | null; subject: string | null; isbn: string | null; description: string },
  text: string,
): boolean {
  const trimmed = text.trim();
  const isbn = /^\d[\d-]*[\dXx]$/.test(trimmed) && trimmed.includes("-") && trimmed.replace(/\D/g, "").length >= 6;
  const wanted = isbn ? [trimmed.replace(/-/g, "").toLowerCase()] : words(trimmed).slice(0, 8);
  if (wanted.length === 0) return true;
  const haystack = words(
    [book.title, book.author1, book.author2, book.subject, book.isbn, book.isbn?.replace(/-/g, ""), book.description]
      .filter(Boolean)
      .join(" "),
  );
  return wanted.every((word) => haystack.some((token) => token.startsWith(word)));
}

/** Search as you type starts at this many characters, in the search box and in the API that answers it. */
export const SEARCH_MIN_CHARS = 3;
