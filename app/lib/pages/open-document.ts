/**
 * Opens a PDF with pdf.js for preparing its pages and counting them (the admin's browser and
 * Node alike: the caller passes its pdf.js build's `getDocument`). Where pdf.js would refuse a file
 * or lose pages that are there, the file is mended in memory and opened again (./pdf-repair.ts):
 * - pdf.js asks for a password although only the attachments are encrypted;
 * - a page-tree entry that is not a page: pdf.js stops listing pages there (the last page it lists
 *   is that entry, and fails), or, inside a node it can skip by its /Count, fails the good pages
 *   after it in that node too. Every page's dictionary is asked for once (no content is parsed:
 *   about 0.2 ms a page), and when one fails the tree is mended. Such entries come back in
 *   `unreadable`, to be reported as failed pages that keep their numbers.
 * A file that needs a password for its pages is still refused with pdf.js's PasswordException.
 */
import { repairPdf } from "./pdf-repair.ts";

export interface LoadingTask<Doc> {
  promise: Promise<Doc>;
  /** The bytes pdf.js holds (it takes ownership of the ones it is given), also after a failed open. */
  getData(): Promise<Uint8Array>;
  destroy(): Promise<void>;
}

export interface OpenedDocument<Doc> {
  doc: Doc;
  /** Destroy it when done with `doc`. */
  task: LoadingTask<Doc>;
  unreadable: Map<number, string>;
}

interface Document {
  numPages: number;
  getPage(pageNumber: number): Promise<unknown>;
}

export async function openDocument<Doc extends Document>(
  data: Uint8Array,
  open: (data: Uint8Array) => LoadingTask<Doc>,
): Promise<OpenedDocument<Doc>> {
  const task = open(data);
  let doc: Doc;
  try {
    doc = await task.promise;
  } catch (error) {
    const repaired = isPasswordRequest(error)
      ? await task
          .getData()
          .then((bytes) => repairPdf(bytes, { unlock: true }))
          .catch(() => null)
      : null;
    await task.destroy();
    if (!repaired) throw error;
    return openRepaired(repaired.bytes, repaired.unreadable, open);
  }
  if (await somePageFails(doc)) {
    const repaired = await task
      .getData()
      .then((bytes) => repairPdf(bytes, { unlock: false }))
      .catch(() => null);
    if (repaired) {
      const reopened = await openRepaired(repaired.bytes, repaired.unreadable, open).catch(() => null);
      if (reopened) {
        await task.destroy();
        return reopened;
      }
    }
  }
  return { doc, task, unreadable: new Map() };
}

async function somePageFails(doc: Document): Promise<boolean> {
  for (let n = 1; n <= doc.numPages; n++) {
    if (
      await doc.getPage(n).then(
        () => false,
        () => true,
      )
    )
      return true;
  }
  return false;
}

async function openRepaired<Doc extends Document>(
  bytes: Uint8Array,
  unreadable: Map<number, string>,
  open: (data: Uint8Array) => LoadingTask<Doc>,
): Promise<OpenedDocument<Doc>> {
  const task = open(bytes);
  try {
    return { doc: await task.promise, task, unreadable };
  } catch (error) {
    await task.destroy();
    throw error;
  }
}

export function isPasswordRequest(error: unknown): boolean {
  return error instanceof Error && error.name === "PasswordException";
}
