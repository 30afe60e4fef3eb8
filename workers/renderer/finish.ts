/**
 * The last job of a page set (./jobs.ts sends it when no range is left): every page's plain text for
 * search, the outline, the set made the book's (or refused, when no page rendered), and the
 * uploader's notice. Also the refusal of a PDF that cannot be opened at all.
 */
import { eq } from "drizzle-orm";
import { chunks } from "#shared/chunks.ts";
import { plainText } from "#shared/rules/plain-text.ts";
import { discardProvisionalBook } from "../books/editing.ts";
import type { Db } from "../db/client.ts";
import { admins, type Book, type PageSet, pageJobs, pageSetPages, preparationNotices } from "../db/schema.ts";
import { completePageSet } from "../page-images/complete-set.ts";
import type { PageText } from "../page-images/page-content.ts";
import { pageTextKey } from "../page-images/page-keys.ts";
import { abandonSet, storePageFailure } from "../page-images/page-sets.ts";
import { type RendererEnv, setAndBook } from "./job-context.ts";
import { BLANK_DOCUMENT_ERROR } from "./messages.ts";
import { openPdf } from "./pdf-ranges.ts";
import { discardEngine, isEngineFault, pdfiumEngine } from "./pdfium.ts";
import { extractOutline } from "./render-page.ts";

/** Every job done: the search text, the outline, and the set made the book's (or refused, when no page rendered). */
export async function finishSet(env: RendererEnv, setId: string): Promise<void> {
  const { db, bucket } = env;
  const found = await setAndBook(db, setId);
  if (found?.set.status !== "preparing" || !found.set.pageCount) return;
  const { set, book } = found;
  const jobs = await db.select({ state: pageJobs.state, blank: pageJobs.blankPages }).from(pageJobs).where(eq(pageJobs.setId, set.id));
  if (!jobs.length || jobs.some((job) => job.state !== "done")) return;
  const pageCount = set.pageCount ?? 0;
  const rows = await db.select().from(pageSetPages).where(eq(pageSetPages.setId, set.id)).orderBy(pageSetPages.n);
  const rendered = rows.filter((row) => row.error === null);
  const blankPages = jobs.reduce((sum, job) => sum + job.blank, 0);
  // A damaged file often "renders" as nothing but white: all pages blank is refused, as the browser renderer did.
  if (rendered.length && blankPages >= rendered.length && rows.length === pageCount) {
    for (const row of rendered)
      await storePageFailure(db, set, row.n, { width: row.width, height: row.height, error: BLANK_DOCUMENT_ERROR });
    rendered.length = 0;
  }
  const texts: string[] = Array.from({ length: pageCount }, () => "");
  const renderedNumbers = rendered.map((row) => row.n);
  for (const part of chunks(renderedNumbers, 16)) {
    await Promise.all(
      part.map(async (n) => {
        const object = await bucket.get(pageTextKey(book.id, set.id, n));
        if (object) texts[n - 1] = plainText((await object.json()) as PageText);
      }),
    );
  }
  let outline: ReturnType<typeof extractOutline> = [];
  if (rendered.length) {
    try {
      const engine = await pdfiumEngine();
      const document = await openPdf(engine, bucket, set.pdfKey);
      try {
        outline = extractOutline(engine.pdfium, document.doc, pageCount);
      } finally {
        document.close();
      }
    } catch (error) {
      if (isEngineFault(error)) discardEngine();
      outline = []; // a book without its contents is still a book
    }
  }
  const actor = set.startedBy ? await adminActor(db, set.startedBy) : null;
  const result = await completePageSet(db, bucket, actor, book, set, { outline, text: texts });
  if (result.ok) {
    await notify(db, { book, adminId: set.startedBy, outcome: "ready", pageCount, failedPages: result.value.failed.length, message: null });
  } else if (result.failure.kind === "unprocessable") {
    await notify(db, {
      book,
      adminId: set.startedBy,
      outcome: "refused",
      pageCount,
      failedPages: pageCount,
      message: result.failure.error,
    });
  }
}

async function adminActor(db: Db, adminId: number) {
  const [admin] = await db.select({ id: admins.id, email: admins.email }).from(admins).where(eq(admins.id, adminId)).limit(1);
  return admin ?? null;
}

/** A PDF that cannot be prepared at all: refused with its reason; a book added with it goes too. */
export async function refuseSet(env: RendererEnv, set: PageSet, book: Book, reason: string): Promise<void> {
  const { db, bucket } = env;
  const actor = set.startedBy ? await adminActor(db, set.startedBy) : null;
  const removed = book.provisional && !book.pageSetId && (await discardProvisionalBook(db, bucket, actor, book.id, reason));
  if (!removed) await abandonSet(db, bucket, set, book.pdfKey);
  await notify(db, {
    book,
    adminId: set.startedBy,
    outcome: "refused",
    pageCount: null,
    failedPages: 0,
    message: removed ? `${reason} The book was not added either.` : reason,
  });
}

async function notify(
  db: Db,
  notice: {
    book: Book;
    adminId: number | null;
    outcome: "ready" | "refused";
    pageCount: number | null;
    failedPages: number;
    message: string | null;
  },
): Promise<void> {
  await db.insert(preparationNotices).values({
    bookId: notice.book.id,
    title: notice.book.title,
    adminId: notice.adminId,
    outcome: notice.outcome,
    pageCount: notice.pageCount,
    failedPages: notice.failedPages,
    message: notice.message,
  });
}
