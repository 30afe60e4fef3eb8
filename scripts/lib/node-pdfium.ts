// PDFium (the `@embedpdf/pdfium` WebAssembly build the renderer Worker runs) under Node, for
// `npm run pages`, the seed (./render-worker.ts) and the node tests of the page code.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { init } from "@embedpdf/pdfium";
import { DAMAGED_MESSAGE, PASSWORD_MESSAGE } from "../../workers/renderer/messages.ts";
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

/** A whole PDF opened from memory: close with `m._FPDF_CloseDocument(doc)` then `m._free(data)`. */
export function loadWhole(m: Pdfium, bytes: Uint8Array): { doc: number; data: number; pageCount: number } {
  const data = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, data);
  const doc = m._FPDF_LoadMemDocument(data, bytes.length, 0);
  if (!doc) {
    const error = m._FPDF_GetLastError();
    m._free(data);
    // FPDF_ERR_PASSWORD (4) or FPDF_ERR_SECURITY (5): the pages need a password.
    throw new Error(error === 4 || error === 5 ? PASSWORD_MESSAGE : DAMAGED_MESSAGE);
  }
  return { doc, data, pageCount: m._FPDF_GetPageCount(doc) };
}
