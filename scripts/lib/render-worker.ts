// A worker thread that renders one book at a time with the platform's own renderer: PDFium (the
// WebAssembly build the renderer Worker runs, workers/renderer/) and its page code
// (workers/renderer/render-page.ts), here on a whole file in memory. The thread only renders: every
// result goes back to the main thread, which owns the local D1/R2 and stores it
// (scripts/lib/node-pages.ts). Two threads use both cores. `npm run pages` and the seed prepare
// pages the way the platform does (docs/decisions/0038); pdf.js is no longer a preparer.
import { parentPort } from "node:worker_threads";
import { plainText } from "#shared/rules/plain-text.ts";
import type { OutlineItem, PageText } from "../../workers/page-images/page-content.ts";
import { BLANK_DOCUMENT_ERROR, UNREADABLE_PAGE_MESSAGE } from "../../workers/renderer/messages.ts";
import type { Pdfium } from "../../workers/renderer/pdfium-api.ts";
import { extractOutline, renderPage } from "../../workers/renderer/render-page.ts";
import { loadWhole, nodePdfium } from "./node-pdfium.ts";

export type ToWorker =
  | { type: "open"; data: Uint8Array }
  | { type: "render"; done: number[] }
  | { type: "ack"; seq: number; error?: string; status?: number }
  | { type: "close" };

export type FromWorker =
  | { type: "opened"; pageCount: number }
  | { type: "put"; seq: number; n: number; images: [number, Uint8Array][]; text: PageText }
  | { type: "fail"; seq: number; n: number; failure: { width: number; height: number; error: string } }
  | { type: "complete"; seq: number; input: { outline: OutlineItem[]; text: string[] } }
  | { type: "finished"; failed: { n: number; error: string }[] }
  | { type: "error"; message: string };

const port = parentPort!;

class SinkError extends Error {
  readonly status: number;
  constructor(message: string, status = 0) {
    super(message);
    this.status = status;
  }
}

let seq = 0;
const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

function request(message: FromWorker & { seq: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.set(message.seq, { resolve, reject });
    port.postMessage(message);
  });
}

// Storing a page (R2 and D1 through the main thread) overlaps with rendering the next ones: up to
// MAX_IN_FLIGHT pages wait for their answer; a refusal stops the job at the next page.
const MAX_IN_FLIGHT = 3;
const inFlight = new Set<Promise<void>>();
let refusal: Error | null = null;

async function settle(limit: number) {
  while (inFlight.size > limit) await Promise.race(inFlight);
  if (refusal) throw refusal;
}

function track(promise: Promise<void>) {
  const tracked = promise.catch((error: Error) => {
    refusal ??= error;
  });
  const done = tracked.finally(() => inFlight.delete(done));
  inFlight.add(done);
}

/** The open document: its bytes in the wasm heap stay allocated while it is open. */
let open: { m: Pdfium; doc: number; data: number; pageCount: number } | null = null;

function closeDocument() {
  if (!open) return;
  open.m._FPDF_CloseDocument(open.doc);
  open.m._free(open.data);
  open = null;
}

async function openDocument(bytes: Uint8Array) {
  closeDocument();
  const m = await nodePdfium();
  open = { m, ...loadWhole(m, bytes) };
  return open;
}

/** Every page not in `done`, in order, then the search text and the outline: what the platform's jobs store. */
async function renderAll(done: Set<number>): Promise<{ n: number; error: string }[]> {
  if (!open) throw new Error("No document is open");
  const { m, doc, pageCount } = open;
  const failed: { n: number; error: string }[] = [];
  const texts: string[] = [];
  const rendered: { n: number; size: { width: number; height: number } }[] = [];
  let blank = 0;
  for (let n = 1; n <= pageCount; n++) {
    const page = m._FPDF_LoadPage(doc, n - 1);
    if (!page) {
      texts.push("");
      if (done.has(n)) continue;
      await settle(0);
      failed.push({ n, error: UNREADABLE_PAGE_MESSAGE });
      track(request({ type: "fail", seq: ++seq, n, failure: { width: 612, height: 792, error: UNREADABLE_PAGE_MESSAGE } }));
      continue;
    }
    try {
      const result = renderPage(m, page);
      texts.push(plainText(result.text));
      if (done.has(n)) continue;
      await settle(MAX_IN_FLIGHT - 1);
      track(request({ type: "put", seq: ++seq, n, images: [...result.images], text: result.text }));
      rendered.push({ n, size: { width: result.text.width, height: result.text.height } });
      if (result.blank) blank++;
    } catch (error) {
      if (texts.length < n) texts.push("");
      if (done.has(n)) continue;
      await settle(0);
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300) || "PDFium could not render this page";
      failed.push({ n, error: message });
      track(request({ type: "fail", seq: ++seq, n, failure: { width: 612, height: 792, error: message } }));
    } finally {
      m._FPDF_ClosePage(page);
    }
  }
  // A damaged file often "renders" as nothing but white: every page blank is refused, as the platform does.
  if (!done.size && rendered.length && blank === rendered.length && rendered.length === pageCount) {
    await settle(0);
    for (const { n, size } of rendered) track(request({ type: "fail", seq: ++seq, n, failure: { ...size, error: BLANK_DOCUMENT_ERROR } }));
    failed.splice(0, failed.length, ...rendered.map(({ n }) => ({ n, error: BLANK_DOCUMENT_ERROR })));
  }
  const outline: OutlineItem[] = extractOutline(m, doc, pageCount);
  await settle(0);
  await request({ type: "complete", seq: ++seq, input: { outline, text: texts } });
  return failed;
}

port.on("message", async (message: ToWorker) => {
  try {
    if (message.type === "ack") {
      const pending = waiting.get(message.seq);
      waiting.delete(message.seq);
      if (message.error) pending?.reject(new SinkError(message.error, message.status));
      else pending?.resolve();
    } else if (message.type === "open") {
      const opened = await openDocument(message.data);
      port.postMessage({ type: "opened", pageCount: opened.pageCount } satisfies FromWorker);
    } else if (message.type === "render") {
      refusal = null;
      const failed = await renderAll(new Set(message.done));
      port.postMessage({ type: "finished", failed } satisfies FromWorker);
    } else if (message.type === "close") {
      closeDocument();
      port.close();
    }
  } catch (error) {
    port.postMessage({ type: "error", message: error instanceof Error ? error.message : String(error) } satisfies FromWorker);
  }
});

export type { PageText };
