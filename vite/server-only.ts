import { relative } from "node:path";
import type { Plugin } from "vite";

/**
 * The Worker's modules (workers/) are server-only, like React Router's `.server` files: the client
 * build fails when one of them ends up in the browser's bundle, except the few written to be shared
 * (pure rules with no server dependency, listed here) and type-only imports, which leave no code.
 * React Router removes loaders, actions and middlewares, and the imports only they use, from the
 * client's route modules before this runs.
 */
export const SHARED_WITH_BROWSER = [
  "workers/books/category.ts",
  "workers/schools/slug-from-name.ts",
  "workers/books/isbn.ts",
  "workers/schools/public-school.ts",
  "workers/schools/slug.ts",
];

export function serverOnly(root = process.cwd()): Plugin {
  return {
    name: "lectern-server-only",
    applyToEnvironment: (environment) => environment.name === "client",
    transform(_code, id) {
      const path = relative(root, id.split("?")[0] ?? id);
      if (path.startsWith("workers/") && !SHARED_WITH_BROWSER.includes(path)) {
        this.error(`${path} is server-only (workers/) but is imported into the browser bundle; see vite/server-only.ts`);
      }
    },
  };
}
