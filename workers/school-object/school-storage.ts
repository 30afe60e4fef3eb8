/**
 * The school object's `meta` values (docs/decisions/0024): the school's id, its catalogue version
 * and the last flush's sequence number. The tables themselves are made by migrations.ts.
 */

/** Whether the object has ever served its school (an object that has not has no tables, and writes none until it does). */
export function hasStarted(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
}

export type MetaKey = "school_id" | "catalogue_version" | "flush_seq";

export function readMeta(sql: SqlStorage, key: MetaKey): number | null {
  const [row] = sql.exec<{ value: number }>("SELECT value FROM meta WHERE key = ?", key).toArray();
  return row?.value ?? null;
}

export function writeMeta(sql: SqlStorage, key: MetaKey, value: number) {
  sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
}

/**
 * The school's catalogue version: an admin's change to its books raises it, and what Workers
 * remember of the school's books under an older one is stale (workers/reading/page-view-cache.ts).
 */
export function catalogueVersion(sql: SqlStorage): number {
  return readMeta(sql, "catalogue_version") ?? 0;
}

/** The catalogue changed: the new version. */
export function raiseCatalogueVersion(sql: SqlStorage): number {
  const version = catalogueVersion(sql) + 1;
  writeMeta(sql, "catalogue_version", version);
  return version;
}
