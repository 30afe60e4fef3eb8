/**
 * The local D1 and R2 that `wrangler dev --persist-to <dir>` serves, opened with miniflare's own
 * API (docs/decisions/0020): the seed, the page back-fill, the e2e set-up and the bench use it to
 * migrate and fill a state folder without shelling out to `wrangler d1 ... --local`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig, unstable_splitSqlQuery } from "wrangler";
import { ROOT } from "./env.ts";

export const CONFIG_PATH = join(ROOT, "wrangler.toml");
export const DEFAULT_STATE = join(ROOT, ".wrangler/state");
/** wrangler's own table of applied migrations, so `wrangler d1 migrations apply` and this agree. */
const MIGRATIONS_TABLE = "d1_migrations";

export interface LocalBindings {
  DB: D1Database;
  BOOKS: R2Bucket;
  /** The configuration's vars and .dev.vars, as the Worker sees them. */
  vars: Record<string, string>;
}

/** The parts of the Worker's configuration the local state needs. */
interface WorkerConfig {
  d1_databases: Array<{ binding: string; database_id?: string; migrations_dir?: string }>;
  r2_buckets: Array<{ binding: string; bucket_name?: string }>;
  vars: Record<string, unknown>;
}

let workerConfig: ReturnType<typeof loadWorkerConfig> | undefined;

/** The configuration, read once per process. */
function readWorkerConfig() {
  workerConfig ??= loadWorkerConfig();
  return workerConfig;
}

function loadWorkerConfig() {
  const config = unstable_readConfig({ config: CONFIG_PATH }) as unknown as WorkerConfig;
  const database = config.d1_databases.find((db) => db.binding === "DB");
  const bucket = config.r2_buckets.find((b) => b.binding === "BOOKS");
  if (!database?.database_id || !bucket?.bucket_name) throw new Error(`${CONFIG_PATH} must bind DB (D1) and BOOKS (R2)`);
  const devVarsPath = join(ROOT, ".dev.vars");
  let devVars: Record<string, string> = {};
  try {
    devVars = parseEnv(readFileSync(devVarsPath, "utf8")) as Record<string, string>;
  } catch {}
  const vars = Object.fromEntries(Object.entries(config.vars).map(([key, value]) => [key, String(value)]));
  return {
    databaseId: database.database_id,
    migrationsDir: join(ROOT, database.migrations_dir ?? "migrations"),
    bucket: bucket.bucket_name,
    vars: { ...vars, ...devVars },
  };
}

/** The configuration's vars and .dev.vars, as the Worker sees them locally. */
export function localVars(): Record<string, string> {
  return readWorkerConfig().vars;
}

/** Opens a state folder's D1 and R2 (the same files `wrangler dev --persist-to` reads); `dispose` closes them. */
export async function openLocalState(persistTo: string): Promise<{ env: LocalBindings; dispose: () => Promise<void> }> {
  const config = readWorkerConfig();
  // wrangler keeps its local data under {persist-to}/v3; the D1 file is named after the database id.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      resourcePersistencePath: join(persistTo, "v3"),
      d1Databases: { DB: config.databaseId },
      r2Buckets: { BOOKS: config.bucket },
    }),
  );
  try {
    const [DB, BOOKS] = await Promise.all([mf.getD1Database("DB"), mf.getR2Bucket("BOOKS")]);
    const env = { DB: DB as unknown as D1Database, BOOKS: BOOKS as unknown as R2Bucket, vars: config.vars };
    return { env, dispose: () => mf.dispose() };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}

/** The state folder open while `work` runs. */
export async function withLocalState<T>(persistTo: string, work: (bindings: LocalBindings) => Promise<T>): Promise<T> {
  const state = await openLocalState(persistTo);
  try {
    return await work(state.env);
  } finally {
    await state.dispose();
  }
}

/**
 * Applies the migrations a database lacks, in name order, each in one batch with its entry in
 * wrangler's `d1_migrations` table (so a migration is all or nothing, and `wrangler d1 migrations
 * apply --local` sees the same list). Statements are split the way wrangler splits them.
 */
export async function applyMigrations(db: D1Database, log: (line: string) => void = () => {}): Promise<string[]> {
  const { migrationsDir } = readWorkerConfig();
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
    )
    .run();
  const applied = new Set(
    (await db.prepare(`SELECT name FROM ${MIGRATIONS_TABLE}`).all<{ name: string }>()).results.map((row) => row.name),
  );
  const pending = readdirSync(migrationsDir)
    .filter((file) => file.endsWith(".sql") && !applied.has(file))
    .sort();
  for (const file of pending) {
    const statements = unstable_splitSqlQuery(readFileSync(join(migrationsDir, file), "utf8"))
      .map((statement) => statement.trim())
      .filter(Boolean);
    await db.batch([
      ...statements.map((statement) => db.prepare(statement)),
      db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES (?)`).bind(file),
    ]);
    log(`  migration ${file} applied`);
  }
  return pending;
}
