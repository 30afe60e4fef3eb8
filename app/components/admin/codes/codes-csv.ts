import { type CsvColumns, toCsv } from "#shared/csv.ts";

/** The batch as its codes' file names it. */
export interface MadeBatch {
  id: number;
  label: string;
  books: { id: number; title: string }[];
  redeemBy: string | null;
}

/**
 * The codes of a batch just made, as the CSV the admin downloads (one line a code). It is made in
 * the browser from the create answer: the server keeps only the codes' hashes, so this answer is
 * the only place the codes ever are (docs/decisions/0053).
 */
export function codesCsv(batch: MadeBatch, codes: readonly string[]): string {
  const books = batch.books.map((book) => book.title).join("; ");
  const columns: CsvColumns<string> = [
    ["code", (code) => code],
    ["batchId", () => batch.id],
    ["label", () => batch.label],
    ["books", () => books],
    ["redeemBy", () => batch.redeemBy ?? ""],
  ];
  return toCsv(columns, codes);
}

/** `codes-batch-12-city-bookstore.csv`: the batch and its label, in characters any file system takes. */
export function codesFileName(batch: Pick<MadeBatch, "id" | "label">): string {
  const label = batch.label
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `codes-batch-${batch.id}${label ? `-${label}` : ""}.csv`;
}

/** Saves text as a file through a link to a Blob (the codes never go back to the server). */
export function saveTextFile(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link by now; the object URL's memory can go after a moment.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
