/**
 * PDFium (the WebAssembly build of `@embedpdf/pdfium`, Chrome's PDF engine) in workerd: the engine
 * that prepares a book's pages on the platform (docs/decisions/0038). Its wasm is imported as a
 * compiled module (workerd compiles nothing at run time), instantiated once per isolate, and
 * instantiated afresh after a trap (`RuntimeError`), which leaves an Emscripten module unusable.
 * The raw `_FPDF_*` functions are called directly; the package's high-level API is not used.
 */
import { init } from "@embedpdf/pdfium";
import pdfiumWasm from "@embedpdf/pdfium/pdfium.wasm";
import { PDFIUM_ERROR, type Pdfium } from "./pdfium-api.ts";

export { PDFIUM_ERROR, type Pdfium };

export interface Engine {
  pdfium: Pdfium;
  /** PDFium's function table: the range reader puts its callbacks there (./pdf-ranges.ts). */
  table: WebAssembly.Table;
}

let engine: Promise<Engine> | undefined;

export function pdfiumEngine(): Promise<Engine> {
  engine ??= new Promise<Engine>((resolve, reject) => {
    let table: WebAssembly.Table | undefined;
    init({
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
        WebAssembly.instantiate(pdfiumWasm, imports).then((instance) => {
          table = instance.exports.__indirect_function_table as WebAssembly.Table;
          done(instance, pdfiumWasm);
        }, reject);
        return {};
      },
    } as Parameters<typeof init>[0])
      .then((wrapped) => {
        // Required before any FPDF_* call (the package's README).
        wrapped.PDFiumExt_Init();
        if (!table) throw new Error("PDFium's function table was not exported");
        resolve({ pdfium: wrapped.pdfium as unknown as Pdfium, table });
      })
      .catch(reject);
  });
  engine.catch(() => {
    engine = undefined;
  });
  return engine;
}

/** After a trap the module's memory and state are undefined: the next job instantiates it again. */
export function discardEngine(): void {
  engine = undefined;
}

/** Whether an error came from inside the wasm (a trap, an abort): the engine must be discarded. */
export function isEngineFault(error: unknown): boolean {
  return (
    error instanceof WebAssembly.RuntimeError ||
    (error instanceof Error && /^(RuntimeError|Aborted)|abort\(/i.test(`${error.name}: ${error.message}`))
  );
}
