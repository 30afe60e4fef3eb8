/**
 * PDFium (the WebAssembly build of `@embedpdf/pdfium`, Chrome's PDF engine) in workerd: the engine
 * that prepares a book's pages on the platform (docs/decisions/0038). Its wasm is imported as a
 * compiled module (workerd compiles nothing at run time), instantiated once per isolate, and
 * instantiated afresh after a trap (`RuntimeError`), which leaves an Emscripten module unusable.
 * The raw `_FPDF_*` functions are called directly; the package's high-level API is not used.
 */
import { init } from "@embedpdf/pdfium";
import pdfiumWasm from "@embedpdf/pdfium/pdfium.wasm";

/** The part of PDFium's C API the renderer calls (pointers and handles are wasm32 numbers). */
export interface Pdfium {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  _FPDF_GetLastError(): number;
  _FPDF_GetPageCount(doc: number): number;
  _FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  _FPDF_LoadPage(doc: number, index: number): number;
  _FPDF_ClosePage(page: number): void;
  _FPDF_CloseDocument(doc: number): void;
  _FPDF_GetPageWidthF(page: number): number;
  _FPDF_GetPageHeightF(page: number): number;
  _FPDF_PageToDevice(
    page: number,
    startX: number,
    startY: number,
    sizeX: number,
    sizeY: number,
    rotate: number,
    pageX: number,
    pageY: number,
    deviceX: number,
    deviceY: number,
  ): number;
  _FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    startX: number,
    startY: number,
    sizeX: number,
    sizeY: number,
    rotate: number,
    flags: number,
  ): void;
  _FPDFBitmap_CreateEx(width: number, height: number, format: number, buffer: number, stride: number): number;
  _FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, colour: number): void;
  _FPDFBitmap_GetBuffer(bitmap: number): number;
  _FPDFBitmap_GetStride(bitmap: number): number;
  _FPDFBitmap_Destroy(bitmap: number): void;
  _FPDFText_LoadPage(page: number): number;
  _FPDFText_ClosePage(textPage: number): void;
  _FPDFText_CountChars(textPage: number): number;
  _FPDFText_GetUnicode(textPage: number, index: number): number;
  _FPDFText_GetCharBox(textPage: number, index: number, left: number, right: number, bottom: number, top: number): number;
  _FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  _FPDFText_GetFontSize(textPage: number, index: number): number;
  _FPDFBookmark_GetFirstChild(doc: number, bookmark: number): number;
  _FPDFBookmark_GetNextSibling(doc: number, bookmark: number): number;
  _FPDFBookmark_GetTitle(bookmark: number, buffer: number, length: number): number;
  _FPDFBookmark_GetDest(doc: number, bookmark: number): number;
  _FPDFBookmark_GetAction(bookmark: number): number;
  _FPDFAction_GetDest(doc: number, action: number): number;
  _FPDFDest_GetDestPageIndex(doc: number, dest: number): number;
  _FPDFAvail_Create(fileAvail: number, fileAccess: number): number;
  _FPDFAvail_Destroy(avail: number): void;
  _FPDFAvail_IsDocAvail(avail: number, hints: number): number;
  _FPDFAvail_GetDocument(avail: number, password: number): number;
  _FPDFAvail_IsPageAvail(avail: number, pageIndex: number, hints: number): number;
}

export interface Engine {
  pdfium: Pdfium;
  /** PDFium's function table: the range reader puts its callbacks there (./pdf-ranges.ts). */
  table: WebAssembly.Table;
}

/** FPDF_GetLastError's codes that mean something to an admin. */
export const PDFIUM_ERROR = { file: 2, format: 3, password: 4, security: 5, page: 6 } as const;

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
