/**
 * A page as an image (docs/decisions/0013): stamped with the teacher's watermark and hidden mark,
 * as stored for an admin. Opened by open-book.ts, spent by spend-page.ts, answered through the gate.
 */
import { PAGE_WIDTHS, PREVIEW_WIDTH, STORED_PAGE_EXTENSION } from "#shared/rules/page-format.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { pageImageKey } from "../page-images/page-keys.ts";
import { storedWidthFor } from "../page-images/page-reading.ts";
import { markSignsFor } from "../stamp/mark-key.ts";
import { stampPage } from "../stamp/stamp.ts";
import { goneFromR2, open, pageOf, STALE, withFreshRetry } from "./open-book.ts";
import { type PageAsk, throughGate } from "./page-view-gate.ts";
import { spend } from "./spend-page.ts";

/** The widest page image a reader may ask for (`?w=`). */
export const MAX_PAGE_WIDTH = 4096;

/** A page image to send: its bytes (a stream as stored for an admin) and type. */
export interface PageImage {
  body: ReadableStream | Uint8Array;
  contentType: string;
  length: number;
}

/**
 * Page `n` as an image: stamped for a teacher (below the smallest stored width asked: a preview,
 * which costs budget but is not counted as read; the sharp image that follows is), as stored for an
 * admin. `width` is the `w` asked (undefined: 1024; null: malformed or above the largest).
 * `saver` is the reader's data saver (`saver=1`, docs/decisions/0048; null: malformed): the page
 * the teacher reads on a slow connection, so counted as read, stamped with fewer bytes.
 */
export function pageImage(
  ask: PageAsk,
  n: number | null,
  width: number | null | undefined,
  saver: boolean | null = false,
): Promise<Outcome<PageImage>> {
  return throughGate(ask, (reader) =>
    withFreshRetry(async (fresh): Promise<Outcome<PageImage> | typeof STALE> => {
      const opening = await open(ask, reader, fresh);
      if (!opening.ok) return opening;
      const opened = opening.value;
      if (width === null) return failure("invalid", `The width must be a whole number from 1 to ${MAX_PAGE_WIDTH}`);
      if (saver === null) return failure("invalid", "saver must be 1 (the data saver) or left out");
      const page = pageOf(opened, n);
      if (!page.ok) return page;
      const requested = width ?? 1024;
      const narrow = opened.reader.kind === "teacher" && requested < Math.min(...PAGE_WIDTHS);
      const spending = await spend(opened, !narrow || saver);
      if (spending === STALE || !spending.ok) return spending;
      const spent = spending.value;
      const key = pageImageKey(opened.book.id, opened.set.id, page.value.n, storedWidthFor(requested), STORED_PAGE_EXTENSION);
      const object = await ask.context.env.BOOKS.get(key);
      if (!object) return goneFromR2(opened) ?? failure("not-found", "This page could not be displayed.");
      if (!spent.watermark) {
        return done({
          body: object.body,
          contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
          length: object.size,
        });
      }
      const mark = await markSignsFor(ask.context.env, spent.teacherId, spent.day);
      const stamped = await stampPage(
        new Uint8Array(await object.arrayBuffer()),
        spent.watermark,
        narrow ? PREVIEW_WIDTH : undefined,
        mark,
        saver ? "saver" : "sharp",
      );
      return done({ body: stamped.bytes, contentType: stamped.contentType, length: stamped.bytes.byteLength });
    }),
  );
}
