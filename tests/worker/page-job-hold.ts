// A test that looks at a book while its pages are being prepared holds the renderer's queue for the
// time it looks: messages that arrive meanwhile are kept, and run when it lets go (tests/worker/entry.ts).
import { env } from "cloudflare:test";
import { getDb } from "../../workers/db/client.ts";
import type { PageJobMessage } from "../../workers/page-images/preparation.ts";
import { exclusive, runJob } from "../../workers/renderer/jobs.ts";

const state = { held: false, kept: [] as PageJobMessage[] };

export function holdPageJobs(): void {
  state.held = true;
}

/** Keeps (and acknowledges) the messages if the queue is held (true), else leaves them to the renderer (false). */
export function keepWhileHeld(messages: readonly Message<PageJobMessage>[]): boolean {
  if (!state.held) return false;
  for (const message of messages) {
    state.kept.push(message.body);
    message.ack();
  }
  return true;
}

/**
 * The messages kept so far for the set, in the order they were sent, taken out (a test can drop
 * them, as a restart loses them); other sets' messages stay, to run on release.
 */
export function takeKept(setId: string): PageJobMessage[] {
  const taken = state.kept.filter((message) => message.setId === setId);
  state.kept = state.kept.filter((message) => message.setId !== setId);
  return taken;
}

export function keptCount(setId: string): number {
  return state.kept.filter((message) => message.setId === setId).length;
}

/** Lets go, and runs what was kept in order, as the queue would have. */
export async function releasePageJobs(): Promise<void> {
  state.held = false;
  const kept = state.kept.splice(0);
  const rendererEnv = { db: getDb(env.DB), bucket: env.BOOKS, queue: env.PAGE_JOBS };
  for (const message of kept) await exclusive(() => runJob(rendererEnv, message));
}
