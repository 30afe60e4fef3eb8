import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { cachedPer } from "./isolate-cache.ts";
import * as tables from "./schema.ts";
import * as usageTables from "./usage-schema.ts";

const schema = { ...tables, ...usageTables };

export type Db = ReturnType<typeof createDb>;

const createDb = (d1: D1Database) => drizzle(d1, { schema });

// drizzle() walks the whole schema to build its relational config, which cost about 1 ms of CPU
// per request when each request made its own (measured under load); the binding lives as long as
// the isolate, so one client per binding.
export const getDb: (d1: D1Database) => Db = cachedPer(createDb);

/**
 * A client for one request's reads that may come from a read replica near the Worker (D1's
 * Sessions API, "first-unconstrained": the first read goes wherever is nearest, the ones after it
 * see at least what it saw). For reads that may lag an admin's write by a moment: a teacher's page
 * view reading their school's book (docs/decisions/0024). Without the relational schema, so that
 * making one per request costs nothing; use it with the query builder only.
 */
export function getReplicaDb(d1: D1Database): Db {
  if (typeof d1.withSession !== "function") return getDb(d1);
  return drizzle(d1.withSession("first-unconstrained") as unknown as D1Database) as unknown as Db;
}

/**
 * A query built once per database client and run with placeholders (`sql.placeholder`): the hot
 * lookups that run on every page (school by slug, session by token) skip drizzle's query
 * builder, which was the largest single cost of a signed-in page after rendering.
 */
export function preparedQuery<Q extends object>(build: (db: Db) => Q): (db: Db) => Q {
  return cachedPer(build);
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
