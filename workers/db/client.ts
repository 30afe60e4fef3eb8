import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof getDb>;

export function getDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

const dialect = new SQLiteSyncDialect();

/**
 * Runs raw statements as one D1 batch: one transaction, applied in order, all or nothing.
 * For guarded writes whose conditions drizzle's builder cannot express (INSERT ... SELECT ... WHERE).
 * Each result holds the rows the statement returned (for RETURNING) and its meta.
 */
export async function runTransaction(db: Db, statements: SQL[]): Promise<D1Result<Record<string, unknown>>[]> {
  const prepared = statements.map((statement) => {
    const query = dialect.sqlToQuery(statement);
    return db.$client.prepare(query.sql).bind(...query.params);
  });
  return db.$client.batch<Record<string, unknown>>(prepared);
}
