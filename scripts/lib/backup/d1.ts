/**
 * The local D1 backed up as SQL and restored from it (docs/decisions/0046). Each table's rows are
 * written by the exporter `wrangler d1 export --local` runs (miniflare's `PRAGMA
 * miniflare_d1_export`, the same INSERT statements `wrangler d1 export --remote --table` gives),
 * opened on any state folder through miniflare as local-state.ts does (wrangler's own command only
 * knows `.wrangler/state`). The exporter refuses a database with an FTS5 table (cloudflare/workers-sdk#6305),
 * so it is asked table by table, and the search index `books_fts` is written with SQLite's quote().
 * Restore runs schema, rows, then indexes and triggers in one batch: one transaction, foreign keys
 * checked at its end, no trigger firing on a restored row.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unstable_splitSqlQuery } from "wrangler";

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string };

export interface D1TableDump {
  name: string;
  file: string;
  rows: number;
  bytes: number;
}

export interface D1Dump {
  tables: D1TableDump[];
  bytes: number;
}

/** SQLite's and the platform's own tables, which no dump writes. */
const INTERNAL = /^(_cf_|sqlite_)/;
/** The tables FTS5 makes for a virtual table of its own, and fills itself. */
const FTS5_SHADOWS = ["data", "idx", "content", "docsize", "config"];
const quoteId = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function readSchema(DB: D1Database) {
  const { results } = await DB.prepare(
    "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid",
  ).all<SchemaRow>();
  const virtual = results.filter((row) => row.type === "table" && /^CREATE VIRTUAL TABLE/i.test(row.sql)).map((row) => row.name);
  const shadows = new Set(virtual.flatMap((name) => FTS5_SHADOWS.map((suffix) => `${name}_${suffix}`)));
  const kept = results.filter((row) => !INTERNAL.test(row.name) && !shadows.has(row.name) && !shadows.has(row.tbl_name));
  return {
    tables: kept.filter((row) => row.type === "table"),
    after: kept.filter((row) => row.type !== "table"),
    virtual: new Set(virtual),
    hasSequences: results.some((row) => row.name === "sqlite_sequence"),
  };
}

/** A table's rows as INSERT statements, one a line. */
async function tableRows(DB: D1Database, table: string, virtual: boolean): Promise<string[]> {
  if (!virtual) {
    const [lines] = (await DB.prepare("PRAGMA miniflare_d1_export(?,?,?);").bind(1, 0, table).raw<string[]>()) as string[][];
    return (lines ?? []).filter((line) => line.startsWith("INSERT "));
  }
  // The exporter refuses virtual tables: their rows, with rowid, quoted by SQLite itself.
  const { results: columns } = await DB.prepare(`PRAGMA table_info(${quoteId(table)})`).all<{ name: string }>();
  const names = ["rowid", ...columns.map((column) => column.name)];
  const values = names.map((name) => `quote(${name === "rowid" ? "rowid" : quoteId(name)})`).join(" || ',' || ");
  const head = `INSERT INTO ${quoteId(table)} (${names.map((name) => (name === "rowid" ? name : quoteId(name))).join(",")}) VALUES(`;
  const { results } = await DB.prepare(`SELECT ? || ${values} || ');' AS line FROM ${quoteId(table)}`)
    .bind(head)
    .all<{ line: string }>();
  return results.map((row) => row.line);
}

function writeSql(path: string, statements: string[]): number {
  const text = statements.length ? `${statements.join("\n")}\n` : "";
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

/** Writes `dir/schema.sql`, `dir/tables/NNN-<table>.sql` (rows), `dir/after.sql` (indexes, triggers, views). */
export async function dumpD1(DB: D1Database, dir: string): Promise<D1Dump> {
  mkdirSync(join(dir, "tables"), { recursive: true });
  const schema = await readSchema(DB);
  let bytes = writeSql(
    join(dir, "schema.sql"),
    schema.tables.map((row) => `${row.sql};`),
  );
  const tables: D1TableDump[] = [];
  const names = [...schema.tables.map((row) => row.name), ...(schema.hasSequences ? ["sqlite_sequence"] : [])];
  for (const [index, name] of names.entries()) {
    const rows = await tableRows(DB, name, schema.virtual.has(name));
    // The counters AUTOINCREMENT keeps: the restored rows made their own, which these replace.
    const statements = name === "sqlite_sequence" ? ["DELETE FROM sqlite_sequence;", ...rows] : rows;
    const file = `tables/${String(index + 1).padStart(3, "0")}-${name}.sql`;
    const size = writeSql(join(dir, file), statements);
    bytes += size;
    tables.push({ name, file, rows: rows.length, bytes: size });
  }
  bytes += writeSql(
    join(dir, "after.sql"),
    schema.after.map((row) => `${row.sql};`),
  );
  return { tables, bytes };
}

/** The statements of a SQL file, split as wrangler splits them (strings and triggers' bodies kept whole). */
function statementsOf(path: string): string[] {
  return unstable_splitSqlQuery(readFileSync(path, "utf8"))
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** Restores a dump into an empty D1 in one transaction; the statements run. */
export async function restoreD1(DB: D1Database, dir: string, tables: Pick<D1TableDump, "file">[]): Promise<number> {
  const { results } = await DB.prepare(
    "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
  ).all<{ n: number }>();
  if ((results[0]?.n ?? 0) > 0) throw new Error("The database is not empty: restore into a wiped state");
  const statements = [
    "PRAGMA defer_foreign_keys = TRUE",
    ...statementsOf(join(dir, "schema.sql")),
    ...tables.flatMap((table) => statementsOf(join(dir, table.file))),
    ...statementsOf(join(dir, "after.sql")),
  ];
  await DB.batch(statements.map((statement) => DB.prepare(statement)));
  return statements.length;
}
