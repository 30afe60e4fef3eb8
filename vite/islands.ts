import { join } from "node:path";
import type { Plugin } from "vite";

// Each island is its own entry in the client build; the server learns its URL from the virtual
// module, so a page can load that one script instead of the whole app (docs/decisions/0010).
const ISLANDS: Record<string, string> = {
  "teacher-portal": "app/islands/teacher-portal.client.tsx",
  "page-reader": "app/islands/page-reader.client.tsx",
};
const VIRTUAL = "virtual:lectern/islands";
const RESOLVED = `\0${VIRTUAL}`;

export function islands(): Plugin {
  const refs = new Map<string, string>();
  const built: Record<string, { src: string; preload: string[] }> = {};
  return {
    name: "lectern-islands",
    resolveId(id) {
      return id === VIRTUAL ? RESOLVED : undefined;
    },
    // The Worker's build runs after the client's, so by then `built` holds the hashed file names.
    // In `vite dev` it stays empty and every page hydrates the whole app.
    load(id) {
      return id === RESOLVED ? `export const islands = ${JSON.stringify(built)};` : undefined;
    },
    buildStart() {
      if (this.environment.name !== "client" || this.environment.config.command !== "build") return;
      for (const [name, file] of Object.entries(ISLANDS))
        refs.set(name, this.emitFile({ type: "chunk", id: join(import.meta.dirname, "..", file), name: `island-${name}` }));
    },
    generateBundle(_options, bundle) {
      if (this.environment.name !== "client") return;
      for (const [name, ref] of refs) {
        const fileName = this.getFileName(ref);
        const chunk = bundle[fileName];
        const imports = chunk?.type === "chunk" ? chunk.imports : [];
        built[name] = { src: `/${fileName}`, preload: imports.map((file) => `/${file}`) };
      }
    },
  };
}
