/**
 * The school object's SQLite storage read whole and written back (docs/decisions/0046): what the
 * operator's backup keeps of a school, since Durable Objects have no export of their own. Both run
 * in one synchronous step of the object, so a dump is one moment of the school and a restore is
 * all or nothing.
 */
import type { SchoolStorageDump, StoredTable } from "#shared/school-storage-dump.ts";
import { migrate } from "./migrations.ts";
import { hasUnflushed } from "./usage.ts";

/**
 * The runtime's own tables (`_cf_KV`, ...; locally, miniflare's `__miniflare_do_name`, the object's
 * name) and SQLite's: never dumped, never written.
 */
const INTERNAL = /^(_cf_|sqlite_|__miniflare_)/;

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string };

/** Quotes an identifier for SQL. */
const id = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every table of the object's storage with its rows, the indexes (and any trigger or view) after them, and the counters. */
export function dumpStorage(sql: SqlStorage): Omit<SchoolStorageDump, "schoolId" | "alarm"> {
  const schema = sql
    .exec<SchemaRow>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
    .toArray()
    .filter((row) => !INTERNAL.test(row.name) && !INTERNAL.test(row.tbl_name));
  const tables: StoredTable[] = schema
    .filter((row) => row.type === "table")
    .map((row) => {
      const cursor = sql.exec(`SELECT * FROM ${id(row.name)}`);
      const rows = Array.from(cursor.raw());
      for (const cells of rows)
        if (cells.some((cell) => cell instanceof ArrayBuffer))
          throw new Error(`Table ${row.name} holds a BLOB, which the dump does not carry`);
      return { name: row.name, sql: row.sql, columns: cursor.columnNames, rows: rows as StoredTable["rows"] };
    });
  const hasSequences = sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").toArray().length > 0;
  const sequences = hasSequences ? sql.exec<{ name: string; seq: number }>("SELECT name, seq FROM sqlite_sequence").toArray() : [];
  return {
    tables,
    afterRows: schema.filter((row) => row.type !== "table").map((row) => row.sql),
    sequences: sequences.map(({ name, seq }) => ({ name, seq })),
  };
}

/**
 * Replaces the storage's tables with a dump's: every table dropped (their indexes with them), then
 * the dump's tables, their rows, and the indexes after the rows, so a trigger never fires on a
 * restored row. Run it in one transaction: a dump that fails half-way leaves the storage as it was.
 * Returns the rows written.
 */
export function replaceStorage(sql: SqlStorage, dump: Pick<SchoolStorageDump, "tables" | "afterRows" | "sequences">): number {
  const present = sql
    .exec<SchemaRow>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')")
    .toArray()
    .filter((row) => !INTERNAL.test(row.name));
  for (const row of present.filter((entry) => entry.type !== "table")) sql.exec(`DROP ${row.type.toUpperCase()} IF EXISTS ${id(row.name)}`);
  for (const row of present.filter((entry) => entry.type === "table")) sql.exec(`DROP TABLE IF EXISTS ${id(row.name)}`);
  let written = 0;
  for (const table of dump.tables) sql.exec(table.sql);
  for (const table of dump.tables) {
    const insert = `INSERT INTO ${id(table.name)} (${table.columns.map(id).join(", ")}) VALUES (${table.columns.map(() => "?").join(", ")})`;
    for (const row of table.rows) {
      sql.exec(insert, ...row);
      written++;
    }
  }
  for (const statement of dump.afterRows) sql.exec(statement);
  for (const { name, seq } of dump.sequences) {
    sql.exec("DELETE FROM sqlite_sequence WHERE name = ?", name);
    sql.exec("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", name, seq);
  }
  return written;
}

/**
 * The object's storage replaced by a dump, all or nothing; then the object's migrations since the
 * dump run, as they would at its start, and the alarm is set: now when the dump holds usage not
 * yet flushed, else at the dump's alarm's time (now, if that has passed). The rows written, and
 * whether an alarm is set.
 */
export async function restoreStorage(storage: DurableObjectStorage, dump: SchoolStorageDump): Promise<{ rows: number; alarmSet: boolean }> {
  const rows = storage.transactionSync(() => replaceStorage(storage.sql, dump));
  await storage.deleteAlarm();
  if (!dump.tables.length) return { rows: 0, alarmSet: false };
  migrate(storage);
  // Usage not yet flushed goes now: the dump's alarm may be the far-off tidying of ended sessions
  // (tidy.ts), weeks away, and the reports must not wait for it. Without such usage, the dump's
  // alarm is kept (now, if its time has passed).
  const unflushed = hasUnflushed(storage.sql);
  const alarmSet = dump.alarm !== null || unflushed;
  if (alarmSet) await storage.setAlarm(unflushed ? Date.now() : Math.max(dump.alarm ?? 0, Date.now()));
  return { rows, alarmSet };
}
