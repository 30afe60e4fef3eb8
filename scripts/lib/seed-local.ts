import { z } from "zod";
import type { MakeCoverRenditions } from "../../workers/books/cover-store.ts";
import { getDb } from "../../workers/db/client.ts";
import { generateBookPdf } from "../seed/book-pdf.ts";
import { seedDemoUsage } from "../seed/demo-usage.ts";
import { type SeedReport, seedDemo } from "../seed/seed-demo.ts";
import { renderCover } from "./cover.ts";
import { ensureDevVars } from "./env.ts";
import { applyMigrations, DEFAULT_STATE, localVars, withLocalState } from "./local-state.ts";
import { type PrepareReport, prepareMissingPages } from "./node-pages.ts";
import { localPageStore } from "./page-stores.ts";
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
 * Migrates and seeds the local D1 and R2 that `wrangler dev --persist-to <persistTo>` serves, then
 * prepares the pages of every book that lacks them (the demo books on a first run, and books
 * uploaded since).
 */
export async function seedLocal(
  persistTo = DEFAULT_STATE,
  log: (line: string) => void = () => {},
): Promise<{ report: SeedReport; env: SeedEnv; pages: PrepareReport[] }> {
  ensureDevVars();
  return withLocalState(persistTo, async (storage) => {
    await applyMigrations(storage.DB, log);
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
    const pages = await prepareMissingPages(localPageStore(storage), { log });
    return { report, env, pages };
  });
}
