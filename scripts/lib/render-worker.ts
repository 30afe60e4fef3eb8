// A worker thread that renders one book at a time with pdf.js (legacy build) and @napi-rs/canvas,
// encoding pages with sharp. The thread only renders: every result goes back to the main thread,
// which owns the local D1/R2 and stores it (scripts/lib/node-pages.ts). Two threads use both cores.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { type Canvas, createCanvas } from "@napi-rs/canvas";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import sharp from "sharp";
import { type LoadingTask, openDocument } from "../../app/lib/pages/open-document.ts";
import { type PageSink, preparePages, type RenderKit, SinkError } from "../../app/lib/pages/prepare-pages.ts";

export type ToWorker =
  | { type: "open"; data: Uint8Array }
  | { type: "render"; done: number[] }
  | { type: "ack"; seq: number; error?: string; status?: number }
  | { type: "close" };

export type FromWorker =
  | { type: "opened"; pageCount: number }
  | { type: "put"; seq: number; n: number; images: [number, Uint8Array][]; text: Parameters<PageSink["putPage"]>[2] }
  | { type: "fail"; seq: number; n: number; failure: Parameters<PageSink["failPage"]>[1] }
  | { type: "complete"; seq: number; input: Parameters<PageSink["complete"]>[0] }
  | { type: "finished"; failed: { n: number; error: string }[] }
  | { type: "error"; message: string };

const PDFJS = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
const port = parentPort!;

// sharp writes PNG much faster than the canvas's own encoder (about 50 ms against 1 s for a
// 2048 px page here), and as RGB: pages need no alpha channel.
const kit: RenderKit<Canvas> = {
  createCanvas: (width, height) => createCanvas(width, height),
  context: (canvas) => canvas.getContext("2d") as unknown as CanvasRenderingContext2D,
  encode: async (canvas, type) => {
    if (type !== "image/png") throw new Error(`The Node renderer writes PNG only, not ${type}`);
    const pixels = canvas.data();
    const png = await sharp(pixels, { raw: { width: canvas.width, height: canvas.height, channels: 4 } })
      .removeAlpha()
      .png({ compressionLevel: 6 })
      .toBuffer();
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  },
};

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

const sink: PageSink = {
  async putPage(n, images, text) {
    await settle(MAX_IN_FLIGHT - 1);
    const entries: [number, Uint8Array][] = [];
    for (const [width, image] of images)
      entries.push([width, image instanceof Uint8Array ? image : new Uint8Array(await image.arrayBuffer())]);
    track(request({ type: "put", seq: ++seq, n, images: entries, text }));
  },
  async failPage(n, failure) {
    // After every earlier store: a page stored and then found to fail must end up failed.
    await settle(0);
    track(request({ type: "fail", seq: ++seq, n, failure }));
  },
  async complete(input) {
    await settle(0);
    await request({ type: "complete", seq: ++seq, input });
  },
};

let task: LoadingTask<Awaited<ReturnType<typeof getDocument>["promise"]>> | null = null;
// Pages of a damaged page tree that the opened document holds only as empty stand-ins.
let unreadable = new Map<number, string>();

port.on("message", async (message: ToWorker) => {
  try {
    if (message.type === "ack") {
      const pending = waiting.get(message.seq);
      waiting.delete(message.seq);
      if (message.error) pending?.reject(new SinkError(message.error, message.status));
      else pending?.resolve();
    } else if (message.type === "open") {
      await task?.destroy();
      task = null;
      const opened = await openDocument(message.data, (data) =>
        getDocument({
          data,
          enableXfa: false,
          standardFontDataUrl: `${PDFJS}/standard_fonts/`,
          cMapUrl: `${PDFJS}/cmaps/`,
          cMapPacked: true,
          wasmUrl: `${PDFJS}/wasm/`,
          iccUrl: `${PDFJS}/iccs/`,
          verbosity: 0,
        }),
      );
      ({ task, unreadable } = opened);
      const doc = opened.doc;
      port.postMessage({ type: "opened", pageCount: doc.numPages } satisfies FromWorker);
    } else if (message.type === "render") {
      refusal = null;
      const doc = await task!.promise;
      const result = await preparePages({ doc, done: new Set(message.done), unreadable, kit, sink });
      port.postMessage({ type: "finished", failed: result.failed } satisfies FromWorker);
    } else if (message.type === "close") {
      await task?.destroy();
      task = null;
      port.close();
    }
  } catch (error) {
    port.postMessage({ type: "error", message: describeError(error) } satisfies FromWorker);
  }
});

function describeError(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") return "This PDF is password-protected: upload a copy without a password.";
  if (name === "InvalidPDFException") return "This file cannot be opened as a PDF (it may be damaged).";
  return error instanceof Error ? error.message : String(error);
}
