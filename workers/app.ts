import { createRequestHandler } from "react-router";
import { sweepOrphans } from "./books/orphans.ts";
import { getDb } from "./db/client.ts";
import { completeErasures } from "./erasure/complete.ts";
import { handleExportJobs, sweepExports } from "./exports/school-job.ts";
import { createApp, type PageRenderer } from "./http/pipeline.ts";
import { readConfig } from "./kernel/config.ts";
import { withRequestId } from "./kernel/log.ts";
import { sendLicenceReminders } from "./licences/reminders.ts";
import { forgetOldNotices, resendStalled } from "./page-images/preparation.ts";
import { reportHousekeeping } from "./reports/housekeeping.ts";
import { purgeExpired } from "./retention/purge.ts";
import { purgeDeletedSchools } from "./school-object/purge.ts";

const EVERY_MINUTE = "* * * * *";

export { School } from "./school-object/school-object.ts";

const loadBuild = () => import("virtual:react-router/server-build");

/**
 * React Router's handler. Given a function it loads the build and derives its routes and handlers
 * on every request (so Vite's dev server can swap the build); the built Worker's build never
 * changes, so it is given the build itself, once: derive cost ~9% of a dashboard data request.
 */
let handler: ReturnType<typeof createRequestHandler> | undefined;
const renderPage: PageRenderer = async (request, context) => {
  if (import.meta.env.DEV) handler ??= createRequestHandler(loadBuild, import.meta.env.MODE);
  handler ??= createRequestHandler(await loadBuild(), import.meta.env.MODE);
  return handler(request, context);
};

const app = createApp(renderPage, { dev: import.meta.env.DEV });

export default {
  fetch: app.fetch,
  // The school data exports' queue, lectern-exports (docs/decisions/0044): this Worker builds them.
  queue: (batch, env) => handleExportJobs(batch, env),
  // The cron in the Worker's configuration: report rankings and data retention (docs/decisions/0019).
  scheduled(controller, env, ctx) {
    // Every minute: page jobs lost with a restart or a crash are sent again (docs/decisions/0038).
    if (controller.cron === EVERY_MINUTE) {
      ctx.waitUntil(resendStalled(getDb(env.DB), env.PAGE_JOBS));
      // Data exports: a build a restart lost sent again, exports past their day removed (docs/decisions/0044).
      ctx.waitUntil(sweepExports(env));
      return;
    }
    // Its log lines carry an id of their own, as a request's do (kernel/log.ts).
    withRequestId(`scheduled-${crypto.randomUUID()}`, () => {
      ctx.waitUntil(reportHousekeeping(getDb(env.DB)));
      // Ended sessions, spent codes and counters, old audit entries and leak traces (docs/decisions/0045).
      ctx.waitUntil(purgeExpired(getDb(env.DB)));
      // The console's outcomes of page preparation are kept 30 days (docs/decisions/0038).
      ctx.waitUntil(forgetOldNotices(getDb(env.DB)));
      // Deleted schools' objects, should their emptying have failed at the time (docs/decisions/0024).
      ctx.waitUntil(purgeDeletedSchools(getDb(env.DB), env));
      // Erasures whose school object could not be reached at the time (docs/decisions/0045).
      ctx.waitUntil(completeErasures(getDb(env.DB), env));
      // R2 objects no row names (an upload cut off between its completion and the book's update).
      ctx.waitUntil(sweepOrphans(getDb(env.DB), env.BOOKS));
      // 30 and 7 days before a licence ends, its school hears of it once (docs/decisions/0028).
      ctx.waitUntil(sendLicenceReminders(getDb(env.DB), readConfig(env as unknown as Record<string, unknown>)));
    });
  },
} satisfies ExportedHandler<Env>;
