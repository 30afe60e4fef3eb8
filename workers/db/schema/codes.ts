/**
 * Bookstore codes (docs/decisions/0053): a batch of redemption codes an admin makes for a book or a
 * bundle, sold through a bookstore or channel (its label), each granting the batch's licence terms to
 * the school that redeems it. A code is never stored in clear: only its keyed hash (HMAC-SHA-256 under
 * the codes' secret, hex) and its last four characters, which the invoices and the batch page show.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { books } from "./catalogue.ts";
import { schools } from "./schools.ts";
import { createdAt } from "./timestamps.ts";

/**
 * A batch: its label (the bookstore or channel), the terms a redeemed code grants (either `days` of
 * licence from the redemption, or a fixed last day `ends_on`; `seats` null for unlimited; the offline
 * terms as a licence has them), how many codes it has, and the last day a code may be redeemed
 * (`redeem_by`, null: no limit). A revoked batch's unredeemed codes redeem no more.
 */
export const codeBatches = sqliteTable(
  "code_batches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    label: text("label").notNull(),
    days: integer("days"),
    endsOn: text("ends_on"),
    seats: integer("seats"),
    offlineAllowed: integer("offline_allowed", { mode: "boolean" }).notNull().default(true),
    offlineDays: integer("offline_days").notNull().default(14),
    count: integer("count").notNull(),
    redeemBy: text("redeem_by"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at", { mode: "number" }),
    // Its codes redeemed, and withdrawn unredeemed: kept by the writes that change them (in their
    // transactions, as SQL increments), so the publisher's list reads no code (a batch has up to 10,000).
    redeemedCount: integer("redeemed_count").notNull().default(0),
    revokedCount: integer("revoked_count").notNull().default(0),
  },
  (t) => [index("code_batches_label_idx").on(t.label)],
);

/** The books a batch's codes grant: one for a single book, more for a bundle. */
export const codeBatchBooks = sqliteTable(
  "code_batch_books",
  {
    batchId: integer("batch_id")
      .notNull()
      .references(() => codeBatches.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.bookId] }), index("code_batch_books_book_idx").on(t.bookId)],
);

/**
 * One code: its keyed hash (unique: a lookup by the code typed), its last four characters, and once
 * redeemed, when, by which school (kept by name too: the invoice still names a school deleted
 * since) and the redemption's own random id (the licence writes of the same transaction run only
 * where it was written, so of two people entering one code at once exactly one redeems it).
 */
export const codes = sqliteTable(
  "codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    batchId: integer("batch_id")
      .notNull()
      .references(() => codeBatches.id, { onDelete: "cascade" }),
    hash: text("hash").notNull(),
    last4: text("last4").notNull(),
    redeemedAt: integer("redeemed_at", { mode: "number" }),
    schoolId: integer("school_id").references(() => schools.id, { onDelete: "set null" }),
    schoolName: text("school_name"),
    redemption: text("redemption"),
    revokedAt: integer("revoked_at", { mode: "number" }),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`),
  },
  (t) => [
    uniqueIndex("codes_hash").on(t.hash),
    index("codes_batch_idx").on(t.batchId),
    index("codes_school_idx").on(t.schoolId),
    index("codes_redeemed_idx").on(t.redeemedAt),
  ],
);

export type CodeBatch = typeof codeBatches.$inferSelect;
export type Code = typeof codes.$inferSelect;
