import { createRequestHandler } from "react-router";
import { createAppHandler } from "./http/pipeline.ts";

const renderPage = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  fetch: createAppHandler(renderPage, { dev: import.meta.env.DEV }),
} satisfies ExportedHandler<Env>;
