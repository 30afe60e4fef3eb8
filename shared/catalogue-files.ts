// A catalogue import's files (docs/decisions/0040): which dropped file is which row's PDF or cover.
// Pure, for the import page and for the Worker's check that no two rows name the same PDF.

/** The CSV's columns as the template has them, named as POST /api/books names the fields. */
export const CATALOGUE_CSV_COLUMNS = [
  "title",
  "author1",
  "author2",
  "isbn",
  "gradeLevel",
  "subject",
  "description",
  "pdfFile",
  "coverFile",
] as const;

/** The most rows one import takes (one D1 batch; the page uploads their files a few at a time). */
export const MAX_CATALOGUE_ROWS = 500;

/** The template: the header and two example rows, the second with its cover. */
export function catalogueCsvTemplate(): string {
  return [
    CATALOGUE_CSV_COLUMNS.join(","),
    '"Rivers of the World",Ana Ruiz,,978-0-306-40615-7,7,Geography,"Where rivers rise, and where they meet the sea.",rivers.pdf,',
    '"Numbers Everywhere","Sam Lee","Kim Park",,3,Mathematics,,numbers-everywhere.pdf,numbers-everywhere.jpg',
  ].join("\r\n");
}

/**
 * The key a file name is matched by: trimmed, Unicode-normalised (a name typed on a Mac and the
 * same name from Windows), case ignored (the file systems people copy from ignore it too).
 */
export function fileKey(name: string): string {
  return name.trim().normalize("NFC").toLowerCase();
}

/** What a row asks for, by its row number in the file. */
export interface RowFiles {
  row: number;
  pdfFile: string;
  coverFile: string | null;
}

export interface FileMatch<F> {
  /** Each row's PDF and cover as dropped (null: not dropped yet). */
  rows: { row: number; pdf: F | null; cover: F | null }[];
  /** Rows whose PDF has not been dropped; rows whose named cover has not. */
  missingPdf: number[];
  missingCover: number[];
  /** Dropped files no row names (wrong name, or another import's). */
  unmatched: F[];
  /** Names dropped twice (alike but for case): neither is used until one is taken away. */
  ambiguous: string[];
}

/**
 * Matches dropped files to rows by name (fileKey). A file may serve several rows only as a cover
 * (one cover for a series); a PDF is one book's, which the server's check already makes so.
 */
export function matchFiles<F extends { name: string }>(rows: readonly RowFiles[], files: readonly F[]): FileMatch<F> {
  const byKey = new Map<string, F[]>();
  for (const file of files) byKey.set(fileKey(file.name), [...(byKey.get(fileKey(file.name)) ?? []), file]);
  const ambiguous = [...byKey.values()].filter((same) => same.length > 1).map((same) => same.map((file) => file.name).join(", "));
  const used = new Set<string>();
  const take = (name: string | null): F | null => {
    if (!name) return null;
    const key = fileKey(name);
    const found = byKey.get(key);
    if (found?.length !== 1) return null;
    used.add(key);
    return found[0]!;
  };
  const matched = rows.map((row) => ({ row: row.row, pdf: take(row.pdfFile), cover: take(row.coverFile) }));
  return {
    rows: matched,
    missingPdf: matched.filter((row) => !row.pdf).map((row) => row.row),
    missingCover: matched.filter((row, i) => rows[i]!.coverFile && !row.cover).map((row) => row.row),
    unmatched: files.filter((file) => !used.has(fileKey(file.name)) && byKey.get(fileKey(file.name))!.length === 1),
    ambiguous,
  };
}

/** "row 6", "rows 6 and 9", "rows 6, 9 and 12". */
export function rowList(numbers: readonly number[]): string {
  if (numbers.length === 1) return `row ${numbers[0]}`;
  return `rows ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}

/** Runs `work` for every item, at most `limit` at a time, in order of the list; resolves when all have settled. */
export async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
