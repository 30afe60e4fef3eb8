import { relative } from "node:path";
import type { Plugin } from "vite";

/**
 * The Worker's modules (workers/) are server-only, like React Router's `.server` files: the client
 * build fails when one of them ends up in the browser's bundle (type-only imports leave no code).
 * Rules both sides use live in shared/ (imported as #shared/...), outside both app/ and workers/.
 * React Router removes loaders, actions and middlewares, and the imports only they use, from the
 * client's route modules before this runs.
 */
export function serverOnly(root = process.cwd()): Plugin {
  return {
    name: "lectern-server-only",
    applyToEnvironment: (environment) => environment.name === "client",
    transform(_code, id) {
      const path = relative(root, id.split("?")[0] ?? id);
      if (path.startsWith("workers/")) {
        this.error(`${path} is server-only (workers/) but is imported into the browser bundle; see vite/server-only.ts`);
      }
    },
  };
}
