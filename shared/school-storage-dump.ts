/**
 * A school object's whole storage as the operator's backup carries it (docs/decisions/0046): every
 * table of its SQLite storage with its CREATE statement and rows, the indexes made after the rows,
 * the AUTOINCREMENT counters, and the alarm. The Worker's guarded route answers it
 * (workers/api/operator.ts) and takes it back; scripts/backup.ts and scripts/restore.ts read and
 * send it. The statements are checked to be what a dump holds, so a restore runs nothing else.
 */
import { z } from "zod";

/** What the object's tables hold: integers, reals, text, NULL (no table of it has a BLOB column). */
const StoredValueSchema = z.union([z.number(), z.string(), z.null()]);

const CreateTableSchema = z.string().regex(/^CREATE TABLE /, "A table's statement must be its CREATE TABLE");
const AfterRowsSchema = z
  .string()
  .regex(/^CREATE (UNIQUE )?INDEX |^CREATE TRIGGER |^CREATE VIEW /, "Only indexes, triggers and views follow the rows");

export const StoredTableSchema = z
  .object({
    name: z.string().min(1),
    sql: CreateTableSchema,
    columns: z.array(z.string().min(1)).min(1),
    rows: z.array(z.array(StoredValueSchema)),
  })
  .refine((table) => table.rows.every((row) => row.length === table.columns.length), {
    error: "Every row must have a value for each column",
    path: ["rows"],
  });

export const SchoolStorageDumpSchema = z.object({
  schoolId: z.number().int().positive(),
  /** Empty for an object that never served its school (it holds nothing). */
  tables: z.array(StoredTableSchema),
  afterRows: z.array(AfterRowsSchema),
  /** sqlite_sequence: the next id an AUTOINCREMENT table gives, so a deleted row's id is never given again. */
  sequences: z.array(z.object({ name: z.string().min(1), seq: z.number().int() })),
  /** When the object's alarm (its next usage flush) was due; null: none set. */
  alarm: z.number().nullable(),
});

export type StoredTable = z.infer<typeof StoredTableSchema>;
export type SchoolStorageDump = z.infer<typeof SchoolStorageDumpSchema>;

/** The school id the dump's own `meta` table names (null: none), which must be the school it is restored to. */
export function dumpedSchoolId(dump: SchoolStorageDump): number | null {
  const meta = dump.tables.find((table) => table.name === "meta");
  if (!meta) return null;
  const key = meta.columns.indexOf("key");
  const value = meta.columns.indexOf("value");
  const row = meta.rows.find((cells) => cells[key] === "school_id");
  return typeof row?.[value] === "number" ? row[value] : null;
}

/** Rows in the dump, over every table. */
export function dumpedRows(dump: SchoolStorageDump): number {
  return dump.tables.reduce((sum, table) => sum + table.rows.length, 0);
}
