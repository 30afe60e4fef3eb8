/**
 * Titles from A to Z as a reader expects them: a capital beside its small letter ('apple pie' by
 * 'Apple Tart'), an accented letter beside its plain one ('Éclairs' by 'Eclipse'), by the rules of
 * English, the pages' language. SQLite has only BINARY and an ASCII-only NOCASE, so the library's
 * title orders are decided here (docs/decisions/0021).
 */
const titleCollator = new Intl.Collator("en", { usage: "sort" });

export const compareTitles = (a: string, b: string) => titleCollator.compare(a, b);

/** What places a book in an order that compares titles: 'Title (A–Z)', and 'Recently read' for the books never read. */
export interface ShelfPlace {
  id: number;
  title: string;
  /** When this teacher last read it (null: never). */
  readAt: number | null;
}

export type TitledSort = "title" | "read";

const byTitle = (a: ShelfPlace, b: ShelfPlace) => compareTitles(a.title, b.title) || a.id - b.id;

const ORDERS: Record<TitledSort, (a: ShelfPlace, b: ShelfPlace) => number> = {
  title: byTitle,
  // Read most recently first; books never read after, by title.
  read: (a, b) => {
    if (a.readAt === b.readAt) return byTitle(a, b);
    if (a.readAt === null || b.readAt === null) return a.readAt === null ? 1 : -1;
    return b.readAt - a.readAt;
  },
};

/** The ids of one page of the list, in the sort's order. */
export function pageOfShelf(places: ShelfPlace[], sort: TitledSort, from: number, limit: number): number[] {
  return [...places]
    .sort(ORDERS[sort])
    .slice(from, from + limit)
    .map((place) => place.id);
}
