import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";
// Only for its `ProvidedContext` keys, so `inject()` below is checked against what the setup provides.
import type {} from "./tests/worker/global-setup.ts";
import { embindCopy } from "./vite/embind-copy.ts";
import { islands } from "./vite/islands.ts";
import { serviceWorker } from "./vite/service-worker.ts";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

export default defineConfig({
  test: {
    projects: [
      {
        // Inside workerd, against real local D1 (with the real migrations) and R2.
        plugins: [
          // The real route modules: tests/worker/entry.ts renders pages through React Router's server build.
          reactRouter(),
          islands(),
          // The service worker's script, which the Worker serves at /sw.js.
          serviceWorker(),
          // The WebP encoder's input copied at once, as in the Worker's build (vite/embind-copy.ts).
          embindCopy(),
          {
            // React Router's plugin adds Node's export conditions to server environments; under workerd
            // packages must resolve to their workerd builds (photon's wasm, for one), as in the real build.
            name: "lectern-workerd-conditions",
            configEnvironment(_name, options) {
              const conditions = options.resolve?.conditions;
              if (conditions) options.resolve!.conditions = conditions.filter((condition) => condition !== "node");
            },
          },
          // The function form sees what tests/worker/global-setup.ts provided (the mail catcher's ports).
          cloudflareTest(({ inject }) => ({
            main: "./tests/worker/entry.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // The real local queue, consumed by the renderer's handler (tests/worker/entry.ts exports it),
              // as workers/renderer/wrangler.toml configures it for the renderer Worker.
              // And the app's own export queue (wrangler.toml), consumed by the same entry's handler.
              queueConsumers: {
                "lectern-page-jobs": { maxBatchSize: 1, maxBatchTimeout: 0.05, maxRetries: 10, retryDelay: 1 },
                "lectern-exports": { maxBatchSize: 1, maxBatchTimeout: 0.05, maxRetries: 3, retryDelay: 1 },
              },
              bindings: {
                TEST_MIGRATIONS: migrations,
                APP_DOMAIN: "lectern.test",
                ALLOW_DEV_MODE: "true",
                SMTP_URL: "",
                AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
                // Development Mode stays the default; tests that want real mail use these.
                SMTP_TEST_URL: `smtp://127.0.0.1:${inject("smtpPort")}`,
                MAIL_CATCHER_URL: `http://127.0.0.1:${inject("mailCatcherPort")}`,
                // The local OpenID providers tests/worker/global-setup.ts started (TEST_OIDC_CLIENTS).
                OIDC_GOOGLE_ISSUER: inject("googleIssuer"),
                OIDC_GOOGLE_CLIENT_ID: "lectern-test-google",
                OIDC_GOOGLE_CLIENT_SECRET: "google-test-secret-0123456789",
                OIDC_MICROSOFT_ISSUER: inject("microsoftIssuer"),
                OIDC_MICROSOFT_CLIENT_ID: "lectern-test-microsoft",
                OIDC_MICROSOFT_CLIENT_SECRET: "microsoft-test-secret-0123456789",
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["tests/worker/**/*.test.ts"],
          globalSetup: ["./tests/worker/global-setup.ts"],
          setupFiles: ["./tests/worker/apply-migrations.ts", "./tests/worker/console-guard.ts"],
          // A file's first page() compiles the route modules through Vite: on a fresh clone (cold
          // cache) a test of several page renders took just over the default 5 s in CI.
          testTimeout: 20_000,
          isolate: false,
        },
      },
      {
        // Node-side code that is neither the Worker nor the UI: the page renderer under pdf.js.
        test: {
          name: "node",
          environment: "node",
          include: ["tests/node/**/*.test.ts"],
          testTimeout: 60_000,
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
          // The app may still be coming up when a file starts (its world is seeded while the other projects run).
          setupFiles: ["./tests/e2e/wait-for-app.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
