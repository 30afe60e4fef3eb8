import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

export default defineConfig({
  test: {
    projects: [
      {
        // Inside workerd, against real local D1 (with the real migrations) and R2.
        plugins: [
          cloudflareTest({
            main: "./tests/worker/entry.ts",
            wrangler: { configPath: "./wrangler.jsonc" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                APP_DOMAIN: "lectern.test",
                ALLOW_DEV_MODE: "true",
                SMTP_URL: "",
                AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
              },
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["tests/worker/**/*.test.ts"],
          setupFiles: ["./tests/worker/apply-migrations.ts"],
        },
      },
      {
        test: {
          name: "component",
          environment: "happy-dom",
          include: ["tests/component/**/*.test.tsx"],
          setupFiles: ["./tests/component/setup.ts"],
        },
      },
      {
        // Real Chromium against the built app served by wrangler on loopback.
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["./tests/e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
