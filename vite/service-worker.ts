import { createHash } from "node:crypto";
import { join } from "node:path";
import { build, type Plugin } from "vite";

// The service worker (app/sw/service-worker.ts) is built into one classic script, with no
// imports (every browser runs it, module workers are not everywhere), and handed to the Worker as
// a string by this virtual module: the Worker serves it at /sw.js with its own headers, before
// any session or school is looked up (docs/decisions/0049).
const ENTRY = join(import.meta.dirname, "..", "app/sw/service-worker.ts");
const VIRTUAL = "virtual:lectern/service-worker";
const RESOLVED = `\0${VIRTUAL}`;

export function serviceWorker(): Plugin {
  // The build the worker belongs to: a hash of the client's file names, so each new build of the
  // app is a new worker (its update drops the last build's cached files). "dev" without a client build.
  let version = "dev";
  return {
    name: "lectern-service-worker",
    resolveId(id) {
      return id === VIRTUAL ? RESOLVED : undefined;
    },
    // The Worker's build runs after the client's, so by then `version` names the client build.
    async load(id) {
      if (id !== RESOLVED) return undefined;
      this.addWatchFile(ENTRY);
      const script = await bundleServiceWorker(version);
      return `export const serviceWorkerScript = ${JSON.stringify(script)};\nexport const shellVersion = ${JSON.stringify(version)};`;
    },
    generateBundle(_options, bundle) {
      if (this.environment.name !== "client") return;
      const names = Object.keys(bundle).sort().join("\n");
      version = createHash("sha256").update(names).digest("hex").slice(0, 12);
    },
  };
}

/** The worker and the modules it imports, as one minified script. */
async function bundleServiceWorker(version: string): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: "silent",
    root: join(import.meta.dirname, ".."),
    define: { SHELL_VERSION: JSON.stringify(version) },
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      emptyOutDir: false,
      copyPublicDir: false,
      lib: { entry: ENTRY, formats: ["iife"], name: "lecternServiceWorker", fileName: () => "sw.js" },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  for (const result of results) {
    if (!("output" in result)) continue;
    const chunk = result.output.find((file) => file.type === "chunk");
    if (chunk && chunk.type === "chunk") return chunk.code;
  }
  throw new Error("The service worker's build gave no script");
}
