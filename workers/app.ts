import { createRequestHandler } from "react-router";
import { getDb } from "./db/client.ts";
import { createApp } from "./http/pipeline.ts";
import { reportHousekeeping } from "./reports/housekeeping.ts";

const renderPage = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const app = createApp(renderPage, { dev: import.meta.env.DEV });

export default {
  fetch: app.fetch,
  // The cron in the Worker's configuration: report rankings and data retention (docs/decisions/0019).
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(reportHousekeeping(getDb(env.DB)));
  },
} satisfies ExportedHandler<Env>;
