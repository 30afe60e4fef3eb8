import { createRequestHandler } from "react-router";
import { createApp } from "./http/pipeline.ts";

const renderPage = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const app = createApp(renderPage, { dev: import.meta.env.DEV });

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
