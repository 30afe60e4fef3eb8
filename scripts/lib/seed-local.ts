import { join } from "node:path";
import { getPlatformProxy } from "wrangler";
import { z } from "zod";
import { generateBookPdf } from "../../workers/seed/book-pdf.ts";
import { type SeedReport, seedDemo } from "../../workers/seed/seed-demo.ts";
import { renderCover } from "./cover.ts";
import { ensureDevVars, ROOT } from "./env.ts";

const SeedEnvSchema = z.object({
  PUBLISHER_NAME: z.string().default("Lectern Press"),
  DEMO_ADMIN_EMAIL: z.email().default("admin@lectern.example"),
  DEMO_ADMIN_PASSWORD: z.string().min(8),
  DEMO_SUPERADMIN_EMAIL: z.email().default("superadmin@lectern.example"),
  DEMO_SUPERADMIN_PASSWORD: z.string().min(8),
  DEMO_TEACHER_PASSWORD: z.string().min(8),
});

export type SeedEnv = z.infer<typeof SeedEnvSchema>;

/** Seeds the local D1 and R2 that `wrangler dev --persist-to <persistTo>` serves. */
export async function seedLocal(persistTo = join(ROOT, ".wrangler/state")): Promise<{ report: SeedReport; env: SeedEnv }> {
  ensureDevVars();
  const proxy = await getPlatformProxy<Record<string, unknown>>({
    configPath: join(ROOT, "wrangler.jsonc"),
    persist: { path: join(persistTo, "v3") },
  });
  try {
    const env = SeedEnvSchema.parse(proxy.env);
    const report = await seedDemo(
      proxy.env as unknown as { DB: D1Database; BOOKS: R2Bucket },
      {
        adminEmail: env.DEMO_ADMIN_EMAIL,
        adminPassword: env.DEMO_ADMIN_PASSWORD,
        superadminEmail: env.DEMO_SUPERADMIN_EMAIL,
        superadminPassword: env.DEMO_SUPERADMIN_PASSWORD,
        teacherPassword: env.DEMO_TEACHER_PASSWORD,
      },
      { publisher: env.PUBLISHER_NAME, renderPdf: (book) => generateBookPdf(book), renderCover },
    );
    return { report, env };
  } finally {
    await proxy.dispose();
  }
}
