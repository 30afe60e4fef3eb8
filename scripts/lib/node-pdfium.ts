// PDFium (the `@embedpdf/pdfium` WebAssembly build the renderer Worker runs) under Node, for
// `npm run pages`, the seed (./render-worker.ts) and the node tests of the page code.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { init } from "@embedpdf/pdfium";
import { loadWhole } from "../../workers/renderer/load-whole.ts";
import type { Pdfium } from "../../workers/renderer/pdfium-api.ts";

let engine: Promise<Pdfium> | undefined;

export function nodePdfium(): Promise<Pdfium> {
  engine ??= (async () => {
    const wasmBinary = readFileSync(createRequire(import.meta.url).resolve("@embedpdf/pdfium/pdfium.wasm"));
    const wrapped = await init({ wasmBinary } as Parameters<typeof init>[0]);
    wrapped.PDFiumExt_Init();
    return wrapped.pdfium as unknown as Pdfium;
  })();
  return engine;
}

export { loadWhole };
