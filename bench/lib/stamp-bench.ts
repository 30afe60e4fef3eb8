// The page watermark's image pipeline, measured in Node (the same wasm the Worker runs):
//   node bench/lib/stamp-bench.ts
// Each candidate pipeline turns a stored page into a stamped one (decode, watermark, encode);
// pages are rendered with pdf.js + @napi-rs/canvas as the Node renderer would.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PhotonImage } from "@cf-wasm/photon";
import jpegDecode, { init as initJpegDecode } from "@jsquash/jpeg/decode.js";
import jpegEncode, { init as initJpegEncode } from "@jsquash/jpeg/encode.js";
import webpDecode, { init as initWebpDecode } from "@jsquash/webp/decode.js";
import webpEncode, { init as initWebpEncode } from "@jsquash/webp/encode.js";
import { type Canvas, createCanvas } from "@napi-rs/canvas";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { PAGE_WIDTHS } from "../../app/lib/pages/page-format.ts";
import { STAMPED_WEBP_OPTIONS, watermarkPixels } from "../../workers/pages/watermark.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHARED_PDFS = join(ROOT, "../shared/pdfs");
const LINES = ["Dana Whitfield", "dana.whitfield@lincoln-high.example.org", "Lincoln High School", "Nov 22, 2026"];
const RUNS: Record<number, number> = { 1024: 11, 2048: 5 };

interface Pipeline {
  name: string;
  store: (canvas: Canvas) => Uint8Array;
  stamp: (stored: Uint8Array) => Promise<Uint8Array>;
}

const raw = (data: Uint8Array | Uint8ClampedArray, width: number, height: number) =>
  ({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width, height }) as ImageData;

async function stampDecoded(image: ImageData, encode: (image: ImageData) => Promise<ArrayBuffer>) {
  const pixels = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  watermarkPixels(pixels, image.width, image.height, LINES);
  const encoded = await encode(image);
  // mozjpeg hands back a view's buffer that the next call may detach: copy it out now.
  return new Uint8Array(encoded.slice(0));
}

function photonDecode(stored: Uint8Array): ImageData {
  const image = PhotonImage.new_from_byteslice(stored);
  try {
    return raw(image.get_raw_pixels(), image.get_width(), image.get_height());
  } finally {
    image.free();
  }
}

const webpLossy = (image: ImageData) => webpEncode(image, STAMPED_WEBP_OPTIONS);

const PIPELINES: Pipeline[] = [
  {
    // What stampPage does (workers/pages/stamp.ts), minus the wasm imports Node cannot make.
    name: "PNG -> photon -> lossy WebP q75 m0 (libwebp), chosen",
    store: (canvas) => canvas.encodeSync("png"),
    stamp: (stored) => stampDecoded(photonDecode(stored), webpLossy),
  },
  {
    name: "PNG -> photon -> lossless WebP (photon)",
    store: (canvas) => canvas.encodeSync("png"),
    stamp: async (stored) => {
      const image = photonDecode(stored);
      const pixels = new Uint8Array(image.data.buffer);
      watermarkPixels(pixels, image.width, image.height, LINES);
      const out = new PhotonImage(pixels, image.width, image.height);
      try {
        return out.get_bytes_webp();
      } finally {
        out.free();
      }
    },
  },
  {
    name: "lossy WebP q90 -> libwebp -> lossy WebP q75 m0 (libwebp)",
    store: (canvas) => canvas.encodeSync("webp", 90),
    stamp: async (stored) => stampDecoded(await webpDecode(stored.slice().buffer), webpLossy),
  },
  {
    name: "JPEG q90 -> mozjpeg -> JPEG q75 sequential (mozjpeg)",
    store: (canvas) => canvas.encodeSync("jpeg", 90),
    stamp: async (stored) =>
      stampDecoded(await jpegDecode(stored.slice().buffer), (image) => jpegEncode(image, { quality: 75, progressive: false })),
  },
  {
    name: "PNG -> photon -> JPEG q80 (photon)",
    store: (canvas) => canvas.encodeSync("png"),
    stamp: async (stored) => {
      const image = photonDecode(stored);
      const pixels = new Uint8Array(image.data.buffer);
      watermarkPixels(pixels, image.width, image.height, LINES);
      const out = new PhotonImage(pixels, image.width, image.height);
      try {
        return out.get_bytes_jpeg(80);
      } finally {
        out.free();
      }
    },
  },
];

async function initCodecs() {
  const wasm = (path: string) => new WebAssembly.Module(readFileSync(join(ROOT, "node_modules/@jsquash", path)));
  await initWebpEncode(wasm("webp/codec/enc/webp_enc_simd.wasm"));
  await initWebpDecode(wasm("webp/codec/dec/webp_dec.wasm"));
  await initJpegEncode(wasm("jpeg/codec/enc/mozjpeg_enc.wasm"));
  await initJpegDecode(wasm("jpeg/codec/dec/mozjpeg_dec.wasm"));
}

/** Pages to measure: real print pages when ../shared/pdfs is there, a generated text page and a photo page always. */
async function samplePages(): Promise<{ name: string; pdf: Uint8Array; page: number }[]> {
  const pages = [
    { name: "generated text page", pdf: await generatedPdf(), page: 1 },
    { name: "generated photo page", pdf: await generatedPdf(), page: 2 },
  ];
  if (existsSync(SHARED_PDFS)) {
    const file = (name: string) => new Uint8Array(readFileSync(join(SHARED_PDFS, name)));
    pages.unshift(
      { name: "tracemonkey p1 (dense two-column paper)", pdf: file("tracemonkey.pdf"), page: 1 },
      { name: "freeculture p20 (book text)", pdf: file("freeculture.pdf"), page: 20 },
    );
  }
  return pages;
}

let generated: Promise<Uint8Array> | undefined;
function generatedPdf(): Promise<Uint8Array> {
  generated ??= (async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.TimesRoman);
    const text = doc.addPage([612, 792]);
    const words = "the quick brown fox jumps over a lazy dog while students read chapter seven aloud".split(" ");
    for (let line = 0; line < 46; line++) {
      const sentence = Array.from({ length: 14 }, (_, i) => words[(line * 7 + i * 3) % words.length]).join(" ");
      text.drawText(sentence, { x: 72, y: 720 - line * 14, size: 11, font, color: rgb(0, 0, 0) });
    }
    text.drawText("Chapter 7", { x: 72, y: 740, size: 20, font });
    const photo = doc.addPage([612, 792]);
    const image = await doc.embedJpg(photoLikeJpeg());
    photo.drawImage(image, { x: 54, y: 300, width: 504, height: 440 });
    for (let line = 0; line < 14; line++) {
      photo.drawText(words.slice(line % 5, (line % 5) + 9).join(" "), { x: 72, y: 260 - line * 14, size: 11, font });
    }
    return doc.save();
  })();
  return generated;
}

/** Gradients, soft shapes and grain: something a lossless codec cannot shrink much. */
function photoLikeJpeg(): Uint8Array {
  const canvas = createCanvas(1200, 1050);
  const ctx = canvas.getContext("2d");
  const sky = ctx.createLinearGradient(0, 0, 0, 1050);
  sky.addColorStop(0, "#3d6fb6");
  sky.addColorStop(0.6, "#e8b27a");
  sky.addColorStop(1, "#2f4a22");
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, 1200, 1050);
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < 120; i++) {
    ctx.fillStyle = `hsla(${random() * 360}, 50%, ${30 + random() * 40}%, 0.35)`;
    ctx.beginPath();
    ctx.arc(random() * 1200, random() * 1050, 20 + random() * 160, 0, Math.PI * 2);
    ctx.fill();
  }
  const image = ctx.getImageData(0, 0, 1200, 1050);
  for (let i = 0; i < image.data.length; i += 4) {
    const grain = (random() - 0.5) * 24;
    for (let c = 0; c < 3; c++) image.data[i + c] = Math.max(0, Math.min(255, (image.data[i + c] as number) + grain));
  }
  ctx.putImageData(image, 0, 0);
  return canvas.encodeSync("jpeg", 90);
}

async function render(pdf: Uint8Array, pageNumber: number, width: number): Promise<Canvas> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = pdfjs.getDocument({ data: pdf.slice(), verbosity: 0 });
  try {
    const page = await (await task.promise).getPage(pageNumber);
    const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
    const canvas = createCanvas(width, Math.round(viewport.height));
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    // @napi-rs/canvas is what the legacy build draws on in Node; its types are not the DOM's.
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as never, viewport }).promise;
    return canvas;
  } finally {
    await task.destroy();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;

/** One row per pipeline and page: CPU ms per page (median, p95), output and stored bytes, at each width. */
export async function runStampBench(log: (line: string) => void = () => {}): Promise<{ item: string; result: string }[]> {
  await initCodecs();
  const rows: { item: string; result: string }[] = [];
  const pages = await samplePages();
  for (const page of pages) {
    const canvases = new Map<number, Canvas>();
    for (const width of PAGE_WIDTHS) canvases.set(width, await render(page.pdf, page.page, width));
    for (const pipeline of PIPELINES) {
      const parts: string[] = [];
      for (const width of PAGE_WIDTHS) {
        const stored = pipeline.store(canvases.get(width) as Canvas);
        let output = await pipeline.stamp(stored);
        const times: number[] = [];
        for (let run = 0; run < (RUNS[width] ?? 5); run++) {
          // CPU time, not wall time: the figure the Worker is billed and limited by, and steady on a busy machine.
          const start = process.cpuUsage();
          output = await pipeline.stamp(stored);
          const used = process.cpuUsage(start);
          times.push((used.user + used.system) / 1000);
        }
        times.sort((a, b) => a - b);
        parts.push(
          `${width}px: CPU median ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms, ` +
            `out ${kB(output.length)}, stored ${kB(stored.length)}`,
        );
      }
      const row = { item: `${pipeline.name} · ${page.name}`, result: parts.join("; ") };
      log(`${row.item}\n    ${row.result}`);
      rows.push(row);
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStampBench(console.log);
}
