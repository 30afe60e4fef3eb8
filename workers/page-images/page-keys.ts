/**
 * Where a page set's objects live in R2. Everything of a set sits under one prefix, so replacing
 * or deleting a book's pages is "delete this prefix".
 *   pages/{bookId}/{setId}/{n}-{width}.{ext}   the page image at that width
 *   pages/{bookId}/{setId}/{n}.json            the page's text runs with positions
 *   pages/{bookId}/{setId}/search.json         every page's plain text, for search inside the book
 *   pages/{bookId}/{setId}/outline.json        the PDF's outline (contents), when it has one
 */

export function pageSetPrefix(bookId: number, setId: string): string {
  return `pages/${bookId}/${setId}/`;
}

export function bookPagesPrefix(bookId: number): string {
  return `pages/${bookId}/`;
}

export function pageImageKey(bookId: number, setId: string, n: number, width: number, extension: string): string {
  return `${pageSetPrefix(bookId, setId)}${n}-${width}.${extension}`;
}

export function pageTextKey(bookId: number, setId: string, n: number): string {
  return `${pageSetPrefix(bookId, setId)}${n}.json`;
}

export function searchTextKey(bookId: number, setId: string): string {
  return `${pageSetPrefix(bookId, setId)}search.json`;
}

export function outlineKey(bookId: number, setId: string): string {
  return `${pageSetPrefix(bookId, setId)}outline.json`;
}

/** Deletes every object under `prefix`, a listing page (up to 1,000 keys) at a time. */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const listing = await bucket.list({ prefix, cursor, limit: 1000 });
    const keys = listing.objects.map((object) => object.key);
    if (keys.length) await bucket.delete(keys);
    deleted += keys.length;
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  return deleted;
}
