import { COVER_WIDTHS, type CoverWidth } from "#shared/rules/book-category.ts";
import type { Failed } from "../kernel/failure.ts";

/**
 * A cover in R2: the original as uploaded at the book's `coverKey`, and beside it one WebP per
 * COVER_WIDTHS at `{coverKey}.{width}.webp` (decision 0023). Keys follow from the cover's key, so
 * the database knows nothing new. A rendition that could not be made from a cover stored before
 * renditions existed is an empty object marked `unavailable`: it is tried once, and from then on
 * the original is served in its place.
 *
 * No image code here (cover-renditions.ts has it): the seed, which runs in Node, stores through this.
 */
export interface CoverRendition {
  width: CoverWidth;
  bytes: Uint8Array;
}

/** Makes a cover's renditions (cover-renditions.ts), or says why it cannot: the upload's answer. */
export type MakeCoverRenditions = (bytes: Uint8Array, type: string) => Promise<MadeRenditions>;
/**
 * The renditions, or why there are none: a file that is not a readable image (`unreadable`), or an
 * image the Worker does not shrink (CMYK, too many pixels to decode), which browsers still show.
 */
export type MadeRenditions = { ok: true; value: CoverRendition[] } | (Failed & { unreadable: boolean });

export function coverRenditionKey(coverKey: string, width: CoverWidth): string {
  return `${coverKey}.${width}.webp`;
}

/** Every object of a cover: the original and its renditions. */
export function coverObjectKeys(coverKey: string): string[] {
  return [coverKey, ...COVER_WIDTHS.map((width) => coverRenditionKey(coverKey, width))];
}

export async function putCoverRenditions(bucket: R2Bucket, coverKey: string, renditions: CoverRendition[]): Promise<void> {
  await Promise.all(
    renditions.map((rendition) =>
      bucket.put(coverRenditionKey(coverKey, rendition.width), rendition.bytes, { httpMetadata: { contentType: "image/webp" } }),
    ),
  );
}

export async function markCoverRenditionsUnavailable(bucket: R2Bucket, coverKey: string, reason: string): Promise<void> {
  await Promise.all(
    COVER_WIDTHS.map((width) =>
      bucket.put(coverRenditionKey(coverKey, width), new Uint8Array(), { customMetadata: { unavailable: reason } }),
    ),
  );
}

export function isUnavailableRendition(object: R2Object): boolean {
  return object.customMetadata?.unavailable !== undefined;
}

/** Whether the cover has every rendition (or a mark that it cannot have them). */
export async function hasCoverRenditions(bucket: R2Bucket, coverKey: string): Promise<boolean> {
  const heads = await Promise.all(COVER_WIDTHS.map((width) => bucket.head(coverRenditionKey(coverKey, width))));
  return heads.every(Boolean);
}

export async function deleteCover(bucket: R2Bucket, coverKey: string): Promise<void> {
  await bucket.delete(coverObjectKeys(coverKey));
}
