/**
 * How book pages are stored as images: shared by the browser renderer, the Node renderer and the
 * Worker, so nothing here may import Node or Worker modules.
 *
 * Stored as PNG (lossless, at the encoder's default compression) because the Worker decodes the
 * stored image on every request to stamp the teacher's watermark into it: PNG decodes 3x faster
 * than WebP there, so the CPU budget goes to the output encoder instead; lossy storage would also
 * blur text a second time when the stamped page is re-encoded. Every canvas can write PNG
 * (`canvas.toBlob("image/png")` in the browser, `canvas.encode("png")` in @napi-rs/canvas).
 * Measured in docs/decisions/0012-page-watermark.md.
 */

/** Each page is rendered once at each width; the reader asks for the one that fits its screen. */
export const PAGE_WIDTHS = [1024, 2048] as const;
export type PageWidth = (typeof PAGE_WIDTHS)[number];

/**
 * Teachers asking for a page narrower than the narrowest stored width get it at this width, shrunk
 * from the stored one when stamped: the reader's first page shows this quickly (a third of the
 * bytes and stamping time of 1024 px on a colour page), then the sharp one (decision 0013).
 */
export const PREVIEW_WIDTH = 640;

export const STORED_PAGE_TYPE = "image/png";
/** PNG is lossless: canvases ignore the quality argument for it. */
export const STORED_PAGE_QUALITY = undefined;
/** The extension of page images in R2 keys (`pages/{book}/{set}/{n}-{width}.png`). */
export const STORED_PAGE_EXTENSION = "png";

/**
 * Pages taller than twice their width (scrolls, fold-outs; a legal page is 1.65) are scaled down
 * by the renderer to fit: it bounds the Worker's memory per page, which a colour page at 2048 x 4096
 * already takes to about 75 MiB of the isolate's 128 MB once libwebp has copied it (record 12).
 */
export const MAX_PAGE_ASPECT = 2;
export const MAX_PAGE_HEIGHT = MAX_PAGE_ASPECT * Math.max(...PAGE_WIDTHS);

/** The tallest a page may be at `width`. */
export function maxPageHeight(width: number): number {
  return Math.floor(width * MAX_PAGE_ASPECT);
}
