import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { MakeCoverRenditions } from "../../workers/books/cover-store.ts";
import { getDb } from "../../workers/db/client.ts";
import { generateBookPdf } from "../seed/book-pdf.ts";
import { seedDemoUsage } from "../seed/demo-usage.ts";
import { type SeedReport, seedDemo } from "../seed/seed-demo.ts";
import { renderCover } from "./cover.ts";
import { ensureDevVars } from "./env.ts";
import { releaseLocalLeases } from "./local-server.ts";
import { applyMigrations, DEFAULT_STATE, localVars, withLocalState } from "./local-state.ts";
import { type PrepareReport, prepareMissingPages } from "./node-pages.ts";
import { localPageStore, type PageStore } from "./page-stores.ts";
import { registerWasmModules } from "./wasm-modules.ts";

// A specifier tsc does not follow: the Node project's types know no .wasm modules.
const COVER_RENDITIONS: string = "../../workers/books/cover-renditions.ts";

/** The Worker's cover renditions, run in Node with its wasm codecs. */
async function loadCoverRenditions(): Promise<MakeCoverRenditions> {
  registerWasmModules();
  return ((await import(COVER_RENDITIONS)) as { makeCoverRenditions: MakeCoverRenditions }).makeCoverRenditions;
}

const SeedEnvSchema = z.object({
  PUBLISHER_NAME: z.string().default("Lectern Press"),
  DEMO_ADMIN_EMAIL: z.email().default("admin@lectern.example"),
  DEMO_ADMIN_PASSWORD: z.string().min(8),
  DEMO_SUPERADMIN_EMAIL: z.email().default("superadmin@lectern.example"),
  DEMO_SUPERADMIN_PASSWORD: z.string().min(8),
  DEMO_TEACHER_PASSWORD: z.string().min(8),
});

export type SeedEnv = z.infer<typeof SeedEnvSchema>;

/** The demo accounts' settings a seed uses (wrangler.toml's vars and .dev.vars), without seeding. */
export function seedEnv(): SeedEnv {
  ensureDevVars();
  return SeedEnvSchema.parse(localVars());
}

export { DEFAULT_STATE };

/**
 * seedLocal into an emptied folder, again (up to three times in all) when local D1 drops one of the
 * seed's large batches: on a busy machine miniflare's proxy sometimes answers "fetch failed" (other
 * side closed) in seedDemoUsage. Starting from an empty folder makes the retry safe: nothing of the
 * failed attempt is counted twice.
 */
export async function seedFresh(
  persistTo: string,
  log: (line: string) => void = () => {},
  options: Parameters<typeof seedLocal>[2] = {},
): ReturnType<typeof seedLocal> {
  for (let attempt = 1; ; attempt++) {
    rmSync(persistTo, { recursive: true, force: true });
    try {
      return await seedLocal(persistTo, log, options);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes("fetch failed")) throw error;
      console.warn(`Seeding ${persistTo} failed (${(error as Error).message}); seeding again (attempt ${attempt + 1} of 3)`);
    }
  }
}

/**
 * Migrates and seeds the local D1 and R2 that `wrangler dev --persist-to <persistTo>` serves, then
 * prepares the pages of every book that lacks them (the demo books on a first run), except books
 * the platform is preparing (a set with page jobs: the renderer Worker resumes them once the server
 * is up, docs/decisions/0038). `beforeServer`: no server serves the state now and one is about to,
 * so the page jobs' leases of a server that was stopped or killed are released (local-server.ts).
 */
export async function seedLocal(
  persistTo = DEFAULT_STATE,
  log: (line: string) => void = () => {},
  /** `pages: false`: no book's pages are prepared (a test that prepares only the one it reads). */
  options: { beforeServer?: boolean; pages?: boolean } = {},
): Promise<{ report: SeedReport; env: SeedEnv; pages: PrepareReport[] }> {
  ensureDevVars();
  return withLocalState(persistTo, async (storage) => {
    await applyMigrations(storage.DB, log);
    if (options.beforeServer) {
      const due = await releaseLocalLeases(storage);
      if (due) log(`${due} page jobs of books being prepared resume once the server is up.`);
    }
    const env = SeedEnvSchema.parse(storage.vars);
    const report = await seedDemo(
      storage,
      {
        adminEmail: env.DEMO_ADMIN_EMAIL,
        adminPassword: env.DEMO_ADMIN_PASSWORD,
        superadminEmail: env.DEMO_SUPERADMIN_EMAIL,
        superadminPassword: env.DEMO_SUPERADMIN_PASSWORD,
        teacherPassword: env.DEMO_TEACHER_PASSWORD,
      },
      {
        publisher: env.PUBLISHER_NAME,
        renderPdf: (book) => generateBookPdf(book),
        renderCover,
        makeCoverRenditions: await loadCoverRenditions(),
      },
    );
    const usage = await seedDemoUsage(getDb(storage.DB));
    if (usage > 0) log(`Made up 90 days of demo reading (${usage} rollup writes).`);
    const pages =
      options.pages === false ? [] : await prepareMissingPages(withoutPlatformBooks(localPageStore(storage), storage.DB), { log });
    return { report, env, pages };
  });
}

/** The store, less the books whose preparing set has page jobs: the platform's renderer owns those. */
function withoutPlatformBooks(store: PageStore, DB: D1Database): PageStore {
  return {
    ...store,
    async booksNeedingPages(bookId) {
      const owned = await getDb(DB).all<{ id: number }>(sql`
        SELECT DISTINCT s.book_id AS id FROM page_sets s JOIN page_jobs j ON j.set_id = s.id WHERE s.status = 'preparing'`);
      const platform = new Set(owned.map((row) => row.id));
      return (await store.booksNeedingPages(bookId)).filter((book) => !platform.has(book.id));
    },
  };
}
