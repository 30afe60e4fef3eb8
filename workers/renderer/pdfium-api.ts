/**
 * PDFium's C API as the renderer calls it (the raw `_FPDF_*` exports of the `@embedpdf/pdfium`
 * Emscripten module; pointers and handles are wasm32 numbers). Apart from ./pdfium.ts, which loads
 * the module in workerd, so Node code (scripts/lib/render-worker.ts) can use the same page code.
 */
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

/** FPDF_GetLastError's codes that mean something to an admin. */
export const PDFIUM_ERROR = { file: 2, format: 3, password: 4, security: 5, page: 6 } as const;
