/** A book's PDF on its way to teachers: the upload in flight, its page sets and pages, the platform's jobs and their outcome. */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bookIdColumn } from "./catalogue.ts";
import { createdAt } from "./timestamps.ts";

// R2 multipart uploads in flight, so a cancelled or abandoned one can be aborted and swept.
export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    bookId: bookIdColumn(),
    kind: text("kind", { enum: ["pdf", "cover"] }).notNull(),
    objectKey: text("object_key").notNull(),
    r2UploadId: text("r2_upload_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_book_idx").on(t.bookId), index("uploads_created_idx").on(t.createdAt)],
);

/**
 * One rendering of one PDF into page images and text (docs/decisions/0013). A book reads from the
 * ready set its `page_set_id` names; a new PDF gets a new set, which replaces the old one in a
 * single batch once every page exists, so teachers see the old pages or the new, never a mix.
 */
export const pageSets = sqliteTable(
  "page_sets",
  {
    id: text("id").primaryKey(),
    bookId: bookIdColumn(),
    pdfKey: text("pdf_key").notNull(),
    pdfSize: integer("pdf_size").notNull(),
    // Known once a renderer has opened the PDF.
    pageCount: integer("page_count"),
    status: text("status", { enum: ["preparing", "ready"] })
      .notNull()
      .default("preparing"),
    hasOutline: integer("has_outline", { mode: "boolean" }).notNull().default(false),
    // The admin whose upload opened the set: told when it is ready or refused (preparation_notices).
    startedBy: integer("started_by"),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "number" }),
  },
  (t) => [
    index("page_sets_book_idx").on(t.bookId, t.status),
    // The console's list of every book being prepared (workers/page-images/preparation-status.ts).
    index("page_sets_status_idx").on(t.status, t.createdAt),
  ],
);

/** The page set a row belongs to, for the tables whose rows go when their set does. */
const setIdColumn = () =>
  text("set_id")
    .notNull()
    .references(() => pageSets.id, { onDelete: "cascade" });

/**
 * The platform's work on a page set (docs/decisions/0038): one row per Queue message, so the work
 * survives a restart (the local queue is held in memory) and a page that keeps failing is given up
 * after a bounded number of tries. `first = 0` is the plan (open the PDF, count its pages, write the
 * ranges); the others are page ranges. A delivery claims its row by a lease (`leased_until`, moved
 * on after each page); a row still queued whose lease ran out, or never sent on, is sent again.
 */
export const pageJobs = sqliteTable(
  "page_jobs",
  {
    setId: setIdColumn(),
    first: integer("first").notNull(),
    last: integer("last").notNull(),
    state: text("state", { enum: ["queued", "done"] })
      .notNull()
      .default("queued"),
    tries: integer("tries").notNull().default(0),
    // The page being rendered on a retried delivery: the one to give up on if it stops the renderer again.
    at: integer("at"),
    blankPages: integer("blank_pages").notNull().default(0),
    sentAt: integer("sent_at", { mode: "number" }).notNull(),
    leasedUntil: integer("leased_until", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.setId, t.first] }), index("page_jobs_queued_idx").on(t.state, t.leasedUntil)],
);

/**
 * What became of a book's preparation, for the admin who uploaded its PDF and for the console: a
 * book ready (with its failed pages) or refused (with the reason). Kept 30 days.
 */
export const preparationNotices = sqliteTable(
  "preparation_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // The book may be gone (a refused add removes it): its title is kept here.
    bookId: integer("book_id"),
    title: text("title").notNull(),
    adminId: integer("admin_id"),
    outcome: text("outcome", { enum: ["ready", "refused"] }).notNull(),
    pageCount: integer("page_count"),
    failedPages: integer("failed_pages").notNull().default(0),
    message: text("message"),
    createdAt: createdAt(),
  },
  (t) => [
    index("preparation_notices_created_idx").on(t.createdAt),
    // A book's latest outcome (the book page's panel).
    index("preparation_notices_book_idx").on(t.bookId, t.id),
  ],
);

/** A page of a set that exists: rendered (error null) or reported as impossible to render (error set). */
export const pageSetPages = sqliteTable(
  "page_set_pages",
  {
    setId: setIdColumn(),
    n: integer("n").notNull(),
    // The page's size in PDF points (pdf.js viewport at scale 1).
    width: real("width").notNull(),
    height: real("height").notNull(),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.setId, t.n] })],
);

export type PageSet = typeof pageSets.$inferSelect;
