/**
 * The renderer Worker (docs/decisions/0038): prepares books' pages with PDFium, taking its work from
 * the `lectern-page-jobs` Queue that the app Worker fills when a PDF arrives. A Worker of its own, so
 * the app Worker stays small and PDFium's 4.6 MB module is compiled only where pages are rendered;
 * it shares the app's D1 database and R2 bucket. Configuration: workers/renderer/wrangler.toml.
 */
import { getDb } from "../db/client.ts";
import { log, withRequestId } from "../kernel/log.ts";
import type { PageJobMessage } from "../page-images/preparation.ts";
import { exclusive, runJob } from "./jobs.ts";

export interface RendererBindings {
  DB: D1Database;
  BOOKS: R2Bucket;
  PAGE_JOBS: Queue<PageJobMessage>;
}

/** A job that threw (D1 or R2 out of reach) is tried again after this long; its pages so far are kept. */
const RETRY_DELAY_SECONDS = 10;

export async function handlePageJobs(batch: MessageBatch<PageJobMessage>, bindings: RendererBindings): Promise<void> {
  const env = { db: getDb(bindings.DB), bucket: bindings.BOOKS, queue: bindings.PAGE_JOBS };
  for (const message of batch.messages) {
    await withRequestId(`page-job-${message.id}`, async () => {
      try {
        await exclusive(() => runJob(env, message.body));
        message.ack();
      } catch (error) {
        log.warn("A page job failed; the queue will try it again", {
          setId: message.body.setId,
          first: message.body.first,
          attempts: message.attempts,
          error: error instanceof Error ? error.message : String(error),
        });
        message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
      }
    });
  }
}

export default {
  fetch: () => new Response("Lectern's page renderer takes its work from the page-jobs queue.", { status: 404 }),
  queue: handlePageJobs,
} satisfies ExportedHandler<RendererBindings, PageJobMessage>;
