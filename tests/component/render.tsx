import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createRoutesStub } from "react-router";

/** Renders UI inside a router and a query client, at `path`, with `routes` to navigate to. */
export function renderInApp(ui: ReactNode, options: { path?: string; routes?: Record<string, ReactNode> } = {}) {
  const path = options.path ?? "/";
  // The stub needs components per call: each test renders its own UI at its own paths.
  const Stub = createRoutesStub([
    // biome-ignore lint/correctness/noComponentHookFactories: see above
    { path, Component: () => ui },
    ...Object.entries(options.routes ?? {}).map(([routePath, element]) => ({
      path: routePath,
      // biome-ignore lint/correctness/noComponentHookFactories: see above
      Component: () => element,
    })),
  ]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Stub initialEntries={[path]} />
    </QueryClientProvider>,
  );
}
