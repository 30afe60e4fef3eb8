// Page images and prepared books for the worker tests, made in the test (no binary fixtures).

import { env } from "cloudflare:test";
import { PhotonImage } from "@cf-wasm/photon";
import { PAGE_WIDTHS } from "#shared/rules/page-format.ts";
import { generateBookPdf } from "../../scripts/seed/book-pdf.ts";
import { completePageSet } from "../../workers/page-images/complete-set.ts";
import type { PageText } from "../../workers/page-images/page-content.ts";
import { openPageSet, storePage } from "../../workers/page-images/page-sets.ts";
import { createBook, createSchool, db, ORIGIN, request, signedInAdmin } from "./helpers.ts";

/** A page as a renderer would store it: white, with dark bars standing for lines of text. */
export function pagePng(width: number, height: number, shade = 0): Uint8Array {
  const pixels = new Uint8Array(width * height * 4).fill(255);
  for (let y = Math.floor(height * 0.1); y < height * 0.8; y += Math.max(4, Math.floor(height / 40))) {
    for (let x = Math.floor(width * 0.1); x < width * 0.9; x++) {
      const p = (y * width + x) * 4;
      pixels[p] = pixels[p + 1] = pixels[p + 2] = shade;
    }
  }
  const image = new PhotonImage(pixels, width, height);
  try {
    return image.get_bytes();
  } finally {
    image.free();
  }
}

/** Page sizes kept small (612 x 120 points) so tests stay quick: 1024 x 201 and 2048 x 402 px. */
export const PAGE = { width: 612, height: 120 };

export function pageImages(shade = 0): Map<number, Uint8Array> {
  return new Map(PAGE_WIDTHS.map((width) => [width, pagePng(width, Math.round((width * PAGE.height) / PAGE.width), shade)]));
}

export function pageText(words: string): PageText {
  return { ...PAGE, runs: [{ str: words, x: 72, y: 40, w: 300, h: 12 }] };
}

/** Two schools named `names` reading one prepared book of `texts`, and an admin to look at them. */
export async function twoSchoolsReading(names: [string, string], title: string, texts: string[]) {
  const schoolA = await createSchool({ name: names[0] });
  const schoolB = await createSchool({ name: names[1] });
  const bookId = (await preparedBook(title, [schoolA.id, schoolB.id], texts)).book.id;
  return { schoolA, schoolB, bookId, admin: await signedInAdmin() };
}

/** A book of `schoolIds` whose pages are ready: page n holds the text `texts[n - 1]`. */
export async function preparedBook(
  title: string,
  schoolIds: number[],
  texts: string[],
  outline: { title: string; page: number; items: [] }[] = [],
) {
  const book = await createBook({ title }, schoolIds);
  const opened = await openPageSet(db(), book, texts.length);
  if (!opened.ok) throw new Error(opened.failure.error);
  for (const [i, words] of texts.entries()) {
    const stored = await storePage(db(), env.BOOKS, opened.value, i + 1, { images: pageImages(i * 10), text: pageText(words) });
    if (!stored.ok) throw new Error(stored.failure.error);
  }
  const completed = await completePageSet(db(), env.BOOKS, null, book, opened.value, { outline, text: texts });
  if (!completed.ok) throw new Error(completed.failure.error);
  return { book: { ...book, pageSetId: opened.value.id }, setId: opened.value.id };
}

/** A real two-page PDF from the demo generator, for the upload paths. */
export function twoPagePdf(title: string, author1: string): Promise<Uint8Array<ArrayBuffer>> {
  const book = { title, author1, author2: null, subject: "Science", gradeLevel: 4, description: "", isbn: null, publisher: "Lectern" };
  return generateBookPdf(book, { pages: 2 }) as Promise<Uint8Array<ArrayBuffer>>;
}

/** PUT one page as the browser renderer does: multipart with both images and the text. */
export async function putPage(
  cookie: string,
  bookId: number,
  setId: string,
  n: number,
  images = pageImages(),
  text: unknown = pageText(`words of page ${n}`),
) {
  const form = new FormData();
  for (const [width, bytes] of images)
    form.set(`w${width}`, new File([bytes as Uint8Array<ArrayBuffer>], `${n}-${width}.png`, { type: "image/png" }));
  form.set("text", JSON.stringify(text));
  const url = `${ORIGIN}/api/books/${bookId}/page-sets/${setId}/pages/${n}`;
  const encoded = new Request(url, { method: "PUT", body: form });
  const headers = new Headers(encoded.headers);
  const body = await encoded.arrayBuffer();
  headers.set("Cookie", cookie);
  headers.set("Origin", ORIGIN);
  headers.set("Content-Length", String(body.byteLength));
  return request(url, { method: "PUT", headers, body });
}
