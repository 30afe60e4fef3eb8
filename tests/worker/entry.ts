// The Worker under test: the real pipeline, with React Router replaced by an echo of what it
// would be handed, so worker tests run without a client build.
import { appContext } from "../../workers/http/context.ts";
import { createAppHandler, type PageRenderer } from "../../workers/http/pipeline.ts";

export const echoTenant: PageRenderer = async (request, context) => {
  const { tenant, nonce } = context.get(appContext);
  return Response.json({
    url: request.url,
    host: tenant.host,
    slug: tenant.slug,
    schoolName: tenant.school?.name ?? null,
    basePath: tenant.basePath,
    nonce,
  });
};

export const handle = createAppHandler(echoTenant, { dev: false });

export default { fetch: handle } satisfies ExportedHandler<Env>;
