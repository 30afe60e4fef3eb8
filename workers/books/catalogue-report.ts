/**
 * Where each book of a catalogue import is (docs/decisions/0040), in one statement: its row, its
 * book and that book's newest page set with its pages counted in one pass, an upload in flight,
 * and for a book that is gone the refusal that removed it.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/**
 * waiting: the book exists without its PDF (none sent yet, or an upload abandoned and swept);
 * uploading: a PDF upload is open; preparing: the platform is making its pages; ready: teachers
 * can read it (failed pages counted); refused: its PDF was refused and the book removed with it;
 * removed: the book was deleted.
 */
export type CatalogueState = "waiting" | "uploading" | "preparing" | "ready" | "refused" | "removed";

export interface ReportRow {
  row: number;
  bookId: number;
  title: string;
  pdfFile: string;
  coverFile: string | null;
  hasCover: boolean;
  state: CatalogueState;
  /** Pages of the PDF (once counted), those dealt with (stored or failed), and those failed. */
  pageCount: number | null;
  handled: number;
  failed: number;
  /** Why the PDF was refused. */
  reason: string | null;
}

export interface CatalogueReport {
  id: string;
  createdAt: number;
  rows: ReportRow[];
  /** Rows per state. */
  counts: Record<CatalogueState, number>;
}

type Raw = Omit<ReportRow, "state" | "hasCover"> & {
  createdAt: number;
  present: number;
  hasCover: number;
  status: "preparing" | "ready" | null;
  uploading: number;
};

function stateOf(row: Raw): CatalogueState {
  if (!row.present) return row.reason === null ? "removed" : "refused";
  if (row.status) return row.status;
  return row.uploading ? "uploading" : "waiting";
}

/** The import's report, or null when there is no such import. */
export async function catalogueReport(db: Db, importId: string): Promise<CatalogueReport | null> {
  // The set shown is the one being prepared, else the ready one the book reads.
  const rows = await db.all<Raw>(sql`
    SELECT r.row, r.book_id AS bookId, r.title, r.pdf_file AS pdfFile, r.cover_file AS coverFile, i.created_at AS createdAt,
      b.id IS NOT NULL AS present, b.cover_key IS NOT NULL AS hasCover,
      s.status, s.page_count AS pageCount, count(p.n) AS handled, count(p.error) AS failed,
      EXISTS (SELECT 1 FROM uploads u WHERE u.book_id = r.book_id AND u.kind = 'pdf') AS uploading,
      CASE WHEN b.id IS NULL THEN (
        SELECT coalesce(n.message, 'Its PDF was refused.') FROM preparation_notices n
        WHERE n.created_at >= i.created_at AND n.book_id = r.book_id AND n.outcome = 'refused'
        ORDER BY n.id DESC LIMIT 1
      ) END AS reason
    FROM book_imports i
    JOIN book_import_rows r ON r.import_id = i.id
    LEFT JOIN books b ON b.id = r.book_id
    LEFT JOIN page_sets s ON s.id = coalesce(
      (SELECT id FROM page_sets WHERE book_id = r.book_id AND status = 'preparing' ORDER BY created_at DESC LIMIT 1),
      b.page_set_id)
    LEFT JOIN page_set_pages p ON p.set_id = s.id
    WHERE i.id = ${importId}
    GROUP BY r.row
    ORDER BY r.row`);
  const [first] = rows;
  if (!first) return null;
  const counts: Record<CatalogueState, number> = { waiting: 0, uploading: 0, preparing: 0, ready: 0, refused: 0, removed: 0 };
  const report = rows.map((raw) => {
    const state = stateOf(raw);
    counts[state]++;
    return {
      row: raw.row,
      bookId: raw.bookId,
      title: raw.title,
      pdfFile: raw.pdfFile,
      coverFile: raw.coverFile,
      hasCover: Boolean(raw.hasCover),
      state,
      pageCount: raw.pageCount,
      handled: raw.handled,
      failed: raw.failed,
      reason: raw.reason,
    };
  });
  return { id: importId, createdAt: first.createdAt, rows: report, counts };
}
