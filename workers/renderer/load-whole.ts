/**
 * A whole PDF opened from memory (FPDF_LoadMemDocument), refused with the admin's words when PDFium
 * cannot: a password (FPDF_ERR_PASSWORD, FPDF_ERR_SECURITY) or damage. Close with
 * `m._FPDF_CloseDocument(doc)`, then `m._free(data)`. No wasm import here: Node uses it too
 * (scripts/lib/node-pdfium.ts).
 */
import { DAMAGED_MESSAGE, PASSWORD_MESSAGE } from "./messages.ts";
import { PDFIUM_ERROR, type Pdfium } from "./pdfium-api.ts";

/** Why a PDF cannot be prepared at all, in the admin's words (as the browser said it before). */
export class UnopenablePdf extends Error {
  override name = "UnopenablePdf";
}

export function loadWhole(m: Pdfium, bytes: Uint8Array): { doc: number; data: number; pageCount: number } {
  const data = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, data);
  const doc = m._FPDF_LoadMemDocument(data, bytes.length, 0);
  if (!doc) {
    const error = m._FPDF_GetLastError();
    m._free(data);
    throw new UnopenablePdf(error === PDFIUM_ERROR.password || error === PDFIUM_ERROR.security ? PASSWORD_MESSAGE : DAMAGED_MESSAGE);
  }
  return { doc, data, pageCount: m._FPDF_GetPageCount(doc) };
}
