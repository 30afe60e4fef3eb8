// The page watermark's image pipeline, measured in Node (the same wasm and zlib the Worker runs):
//   node bench/lib/stamp-bench.ts
// The pipeline stampPage runs now (workers/stamp/stamp.ts: native zlib decode, grey PNG or lossy
// WebP out) next to the one it replaced (photon decode, lossy WebP out), on the same pages in the
// same run; pages are rendered with pdf.js + @napi-rs/canvas as the Node renderer would.
import { existsSync, readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PhotonImage } from "@cf-wasm/photon";
import webpEncode, { init as initWebpEncode } from "@jsquash/webp/encode.js";
import { type Canvas, createCanvas } from "@napi-rs/canvas";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { PAGE_WIDTHS } from "#shared/rules/page-format.ts";
import { EMBIND_ENCODERS, patchEmbindCopy } from "../../vite/embind-copy.ts";
import { decodePageImage } from "../../workers/page-images/page-image.ts";
import { PngBuilder } from "../../workers/renderer/png.ts";
import { blockSigns, createLayout } from "../../workers/stamp/mark.ts";
import { STAMPED_WEBP_OPTIONS, watermarkPixels } from "../../workers/stamp/watermark.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHARED_PDFS = join(ROOT, "../shared/pdfs");
const LINES = ["Dana Whitfield", "dana.whitfield@lincoln-high.example.org", "Lincoln High School", "Nov 22, 2026"];
const RUNS: Record<number, number> = { 1024: 15, 2048: 5 };

// workerd imports a .wasm file as a compiled WebAssembly.Module; teach Node the same, so the bench
// runs stampPage itself rather than a copy of it. The WebP encoder's glue is patched as the Worker's
// build patches it (vite/embind-copy.ts), unless STAMP_UNPATCHED=1 (to measure what the patch saves).
registerHooks({
  load(url, context, nextLoad) {
    if (EMBIND_ENCODERS.test(url) && process.env.STAMP_UNPATCHED !== "1") {
      const source = patchEmbindCopy(readFileSync(fileURLToPath(url), "utf8"), url);
      return { format: "module", source, shortCircuit: true };
    }
    if (!url.endsWith(".wasm")) return nextLoad(url, context);
    const source = `export default new WebAssembly.Module(await (await import("node:fs/promises")).readFile(new URL(${JSON.stringify(url)})));`;
    return { format: "module", source, shortCircuit: true };
  },
});
// A specifier tsc does not follow: the Node project's types know no .wasm modules.
const STAMP_MODULE: string = "../../workers/stamp/stamp.ts";
const { stampPage } = (await import(STAMP_MODULE)) as {
  stampPage: (stored: Uint8Array, lines: string[], width?: number, mark?: Int8Array) => Promise<{ bytes: Uint8Array; contentType: string }>;
};
/** A teacher's hidden mark, as workers/reading/page-image.ts passes it with every page (a fixed secret and code). */
const MARK = blockSigns(
  createLayout(new Uint8Array(32).fill(7)),
  new Uint8Array(32).map((_, i) => (i * 37 + 11) & 255),
);

interface Pipeline {
  name: string;
  stamp: (stored: Uint8Array) => Promise<{ bytes: Uint8Array; contentType: string }>;
  /** The CPU of the part measured, when it is not the whole of `stamp` (taken after each call). */
  cpuOf?: () => NodeJS.CpuUsage | undefined;
}

/** The encode's own CPU, from the floor's pipeline to the timing loop. */
const floorCpu: NodeJS.CpuUsage[] = [];

/** RGB to opaque RGBA. */
function widen(rgb: Uint8Array): Uint8Array {
  const rgba = new Uint8Array((rgb.length / 3) * 4).fill(255);
  for (let i = 0, o = 0; i < rgb.length; i += 3, o += 4) rgba.set(rgb.subarray(i, i + 3), o);
  return rgba;
}

const PIPELINES: Pipeline[] = [
  {
    // What stampPage did before (decision 0012, first version).
    name: "before: photon decode -> lossy WebP q75 m0",
    stamp: async (stored) => {
      const image = PhotonImage.new_from_byteslice(stored);
      const [width, height] = [image.get_width(), image.get_height()];
      let pixels: Uint8Array;
      try {
        pixels = image.get_raw_pixels();
      } finally {
        image.free();
      }
      watermarkPixels(pixels, width, height, LINES);
      const data = new Uint8ClampedArray(pixels.buffer as ArrayBuffer, pixels.byteOffset, pixels.byteLength);
      const bytes = new Uint8Array(await webpEncode({ data, width, height, colorSpace: "srgb" } as ImageData, STAMPED_WEBP_OPTIONS));
      return { bytes, contentType: "image/webp" };
    },
  },
  {
    // As the figures before issue 41 were taken: the hidden mark left out.
    name: "now, without the hidden mark: stampPage (zlib decode -> grey PNG, or lossy WebP if colour)",
    stamp: (stored) => stampPage(stored, LINES),
  },
  {
    // The floor under a colour page: libwebp alone, on pixels already decoded (decision 37).
    name: "the floor: libwebp alone (q75 m0) on the decoded page, nothing else",
    stamp: async (stored) => {
      const { width, height, channels, pixels } = decodePageImage(stored);
      const rgba = channels === 4 ? pixels : widen(pixels);
      const data = new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.byteLength);
      const start = process.cpuUsage();
      const bytes = new Uint8Array(await webpEncode({ data, width, height, colorSpace: "srgb" } as ImageData, STAMPED_WEBP_OPTIONS));
      floorCpu.push(process.cpuUsage(start));
      return { bytes, contentType: "image/webp" };
    },
    cpuOf: () => floorCpu.pop(),
  },
  {
    // What a teacher's request runs: every page carries the hidden mark (decision 0025).
    name: "after: stampPage with the hidden mark (zlib decode -> mark -> grey PNG, or lossy WebP if colour)",
    stamp: (stored) => stampPage(stored, LINES, undefined, MARK),
  },
];

/**
 * How pages are stored: RGB with every row filtered Up at zlib level 3, as the Worker's renderer
 * writes them (workers/renderer/png.ts); RGBA as canvases write it (a page prepared in the
 * console's browser); and RGB with sharp's adaptive filters, as the earlier reports measured (when
 * sharp is installed).
 */
async function storers(): Promise<{ name: string; store: (canvas: Canvas) => Promise<Uint8Array> }[]> {
  const list = [
    {
      name: "RGB (the Worker's renderer)",
      store: async (canvas: Canvas) => {
        const rgba = canvas.data();
        const rgb = new Uint8Array((rgba.length / 4) * 3);
        for (let p = 0, i = 0; p < rgba.length; p += 4, i += 3) rgb.set(rgba.subarray(p, p + 3), i);
        const png = new PngBuilder(canvas.width, canvas.height);
        png.addRows(rgb, canvas.width * 3, canvas.height);
        return png.finish();
      },
    },
    { name: "RGBA (canvas)", store: async (canvas: Canvas) => canvas.encodeSync("png") as Uint8Array },
  ];
  const sharpName = "sharp";
  const sharp = await import(sharpName).then((module) => module.default).catch(() => null);
  if (sharp) {
    list.push({
      name: "RGB (sharp)",
      store: async (canvas) => {
        const raw = { width: canvas.width, height: canvas.height, channels: 4 };
        return new Uint8Array(await sharp(canvas.data(), { raw }).removeAlpha().png({ compressionLevel: 6 }).toBuffer());
      },
    });
  }
  return list;
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
      { name: "tracemonkey p5 (paper, figure and code)", pdf: file("tracemonkey.pdf"), page: 5 },
      { name: "freeculture p20 (book text)", pdf: file("freeculture.pdf"), page: 20 },
      { name: "freeculture p1 (colour cover)", pdf: file("freeculture.pdf"), page: 1 },
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

/** One row per stored form, page and pipeline: CPU ms per page (median, p95), output type and bytes, stored bytes, at each width. */
export async function runStampBench(log: (line: string) => void = () => {}): Promise<{ item: string; result: string }[]> {
  await initWebpEncode(new WebAssembly.Module(readFileSync(join(ROOT, "node_modules/@jsquash/webp/codec/enc/webp_enc_simd.wasm"))));
  const rows: { item: string; result: string }[] = [];
  const stores = await storers();
  // STAMP_ONLY=<part of a page's name>: only those pages (to look at one closely, or profile it).
  const only = process.env.STAMP_ONLY?.toLowerCase();
  const pages = (await samplePages()).filter((page) => !only || page.name.toLowerCase().includes(only));
  for (const page of pages) {
    const canvases = new Map<number, Canvas>();
    for (const width of PAGE_WIDTHS) canvases.set(width, await render(page.pdf, page.page, width));
    for (const storer of stores) {
      const stored = new Map<number, Uint8Array>();
      for (const width of PAGE_WIDTHS) stored.set(width, await storer.store(canvases.get(width) as Canvas));
      for (const pipeline of PIPELINES) {
        const parts: string[] = [];
        for (const width of PAGE_WIDTHS) {
          const input = stored.get(width) as Uint8Array;
          let output = await pipeline.stamp(input);
          const times: number[] = [];
          for (let run = 0; run < (RUNS[width] ?? 5); run++) {
            // CPU time, not wall time: the figure the Worker is billed and limited by, and steady on a busy machine.
            const start = process.cpuUsage();
            output = await pipeline.stamp(input);
            const used = pipeline.cpuOf?.() ?? process.cpuUsage(start);
            times.push((used.user + used.system) / 1000);
          }
          times.sort((a, b) => a - b);
          parts.push(
            `${width}px: CPU median ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms, ` +
              `out ${kB(output.bytes.length)} ${output.contentType.slice(6)}, stored ${kB(input.length)}`,
          );
        }
        const row = { item: `${page.name} · stored ${storer.name} · ${pipeline.name}`, result: parts.join("; ") };
        log(`${row.item}\n    ${row.result}`);
        rows.push(row);
      }
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStampBench(console.log);
}
