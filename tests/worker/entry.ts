// The Worker under test: the real pipeline with the real React Router build (its route modules,
// loaders, actions and middlewares compiled by React Router's Vite plugin in this project), and
// the same pipeline with React Router replaced by an echo of the context it would be handed.
import { createRequestHandler } from "react-router";
import { handleExportJobs } from "../../workers/exports/school-job.ts";
import { createApp, type PageRenderer } from "../../workers/http/pipeline.ts";
import { appContext } from "../../workers/kernel/context.ts";
import type { PageJobMessage } from "../../workers/page-images/preparation.ts";
import { handlePageJobs, type RendererBindings } from "../../workers/renderer/index.ts";
import { keepWhileHeld } from "./page-job-hold.ts";

export { School } from "../../workers/school-object/school-object.ts";

export const echoTenant: PageRenderer = async (request, context) => {
  const { tenant, nonce, teacher, admin } = context.get(appContext);
  return Response.json({
    url: request.url,
    host: tenant.host,
    slug: tenant.slug,
    schoolName: tenant.school?.name ?? null,
    basePath: tenant.basePath,
    nonce,
    teacherId: teacher?.teacher.id ?? null,
    adminId: admin?.admin.id ?? null,
  });
};

const echoApp = createApp(echoTenant, { dev: false });
/** The pipeline with an echo in place of React Router: what the tenancy tests read. */
export const handle = (request: Request, env: Env, ctx?: ExecutionContext) => echoApp.fetch(request, env, ctx);

const app = createApp(
  createRequestHandler(() => import("virtual:react-router/server-build"), "production"),
  { dev: false },
);
/** The whole Worker: API and real pages. */
export const handleApp = (request: Request, env: Env, ctx?: ExecutionContext) => app.fetch(request, env, ctx);

/** The API and pages, and the renderer Worker's queue consumer (workers/renderer/index.ts) on the real local queue. */
export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch, env: Env) {
    // The app's own queue: school data exports (workers/app.ts).
    if (batch.queue === "lectern-exports") return handleExportJobs(batch, env);
    const jobs = batch as MessageBatch<PageJobMessage>;
    // A test holding the queue (./page-job-hold.ts) keeps the messages for later.
    if (keepWhileHeld(jobs.messages)) return;
    await handlePageJobs(jobs, env as unknown as RendererBindings);
  },
} satisfies ExportedHandler<Env>;
