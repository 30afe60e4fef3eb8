import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

const ROOT = join(import.meta.dirname, "../node_modules/pdfjs-dist");
// Fonts for PDFs that do not embed theirs, CMaps for CJK text, decoders for JPX/JBIG2 images and
// the colour profile: pdf.js fetches them by URL, so they are served from our own origin
// (the CSP allows nothing else). QuickJS is left out: we never run a PDF's scripts.
const FOLDERS = ["standard_fonts", "cmaps", "wasm", "iccs"];
const SKIP = /^quickjs|^LICENSE/;

function files(): { name: string; path: string }[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((file) => !SKIP.test(file))
      .map((file) => ({ name: `pdfjs/${folder}/${file}`, path: join(ROOT, folder, file) })),
  );
}

/** Puts pdf.js's data files under /pdfjs/ in the client build, and serves them in `vite dev`. */
export function pdfjsAssets(): Plugin {
  return {
    name: "lectern-pdfjs-assets",
    configureServer(server) {
      const byUrl = new Map(files().map((f) => [`/${f.name}`, f.path]));
      server.middlewares.use((req, res, next) => {
        const path = byUrl.get((req.url ?? "").split("?")[0] ?? "");
        if (!path) return next();
        res.setHeader("Cache-Control", "public, max-age=86400");
        res.end(readFileSync(path));
      });
    },
    generateBundle() {
      if (this.environment.name !== "client") return;
      for (const file of files()) this.emitFile({ type: "asset", fileName: file.name, source: readFileSync(file.path) });
    },
  };
}
