// A one-page PDF whose text layer holds control characters, as fuzzed and damaged PDFs do
// (pdf.js's poppler-90-0-fuzzed.pdf gave NUL): its font's ToUnicode map sends byte 00 to NUL,
// 01 to U+0001 and 1B to ESC, and two bytes to Hebrew and Japanese, so pdf.js extracts
// CONTROL_TEXT_RUN exactly; a second run's matrix overflows, so pdf.js places it nowhere (a
// non-finite transform). Made with pdf-lib, for the node and the worker tests alike.
import {
  beginText,
  endText,
  moveText,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  StandardFonts,
  setFontAndSize,
  setTextMatrix,
  showText,
} from "pdf-lib";

/** The run pdf.js reads from the page: Latin words around NUL, U+0001 and ESC, then Hebrew alef and 日. */
export const CONTROL_TEXT_RUN = "Cell\u0000wall\u0001 \u001b green \u05d0\u65e5";
/** The same run cleaned: the control characters gone, the rest (every script) kept. */
export const CLEANED_TEXT_RUN = "Cellwall  green \u05d0\u65e5";

const TO_UNICODE = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Lectern-Control def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
5 beginbfchar <00> <0000> <01> <0001> <1B> <001B> <80> <05D0> <81> <65E5> endbfchar
1 beginbfrange <20> <7E> <0020> endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end`;

const BYTES: Record<string, number> = { "\u05d0": 0x80, "\u65e5": 0x81 };

export async function controlTextPdf(): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  // Embedded now (pdf-lib waits for save) so its dictionary can take the ToUnicode map.
  await font.embed();
  const dict = pdf.context.lookup(font.ref);
  if (!(dict instanceof PDFDict)) throw new Error("The font's dictionary is missing");
  dict.set(PDFName.of("ToUnicode"), pdf.context.register(pdf.context.stream(TO_UNICODE)));
  const page = pdf.addPage([300, 200]);
  const key = page.node.newFontDictionary(font.name, font.ref);
  const hex = [...CONTROL_TEXT_RUN].map((c) => (BYTES[c] ?? c.charCodeAt(0)).toString(16).padStart(2, "0")).join("");
  const far = PDFHexString.of([..."Far off"].map((c) => c.charCodeAt(0).toString(16)).join(""));
  page.pushOperators(
    beginText(),
    setFontAndSize(key, 14),
    moveText(20, 120),
    showText(PDFHexString.of(hex)),
    // A second run whose matrix overflows (a fuzzed PDF's), so pdf.js places it at NaN: it cannot be laid over the page.
    setTextMatrix(1e200, 0, 0, 1e200, 20, 60),
    setFontAndSize(key, 1e200),
    showText(far),
    endText(),
  );
  return (await pdf.save()) as Uint8Array<ArrayBuffer>;
}
