import { EDITED_ELSEWHERE_STATUS } from "#shared/rules/offline-sync.ts";
import {
  type Annotation,
  type ChangedAnnotation,
  createAnnotation,
  deleteAnnotation,
  ReaderApiError,
  updateAnnotation,
} from "../reader/reader-api.ts";
import { type OutboxOp, outboxStorage, type PendingPosition, type Problem, type Target } from "./outbox-store.ts";

/**
 * Work done offline is kept (issue 45 item 4, docs/decisions/0051-offline-sync.md). Every change to
 * a teacher's annotations, and their reading position, is written here first and sent from here, in
 * the order it was made: at once when the network answers, else when `online` fires or the next
 * request succeeds. A create carries its client id (the server's idempotency key: sent twice, one
 * annotation), a change or deletion the time it was made (the later edit wins on the server). What
 * the server refuses is never retried forever and never dropped unseen: it becomes a problem the
 * reader shows with the teacher's words.
 */

/** How an op ended: sent (with the server's answer), still queued, refused, or overtaken by a later edit elsewhere. */
export type Settled =
  | { op: OutboxOp; outcome: "sent"; annotation: Annotation | ChangedAnnotation | null }
  | { op: OutboxOp; outcome: "queued" }
  | { op: OutboxOp; outcome: "refused"; error: string }
  | { op: OutboxOp; outcome: "conflict"; error: string; current: ChangedAnnotation };

const offlineNow = () => typeof navigator !== "undefined" && navigator.onLine === false;

/**
 * A failure that says nothing about the request, only that it did not get through: fetch's
 * TypeError (the reader's API wraps it as status 0), or a 503 while the browser is offline (what the
 * app shell's service worker answers). A 4xx is a refusal and is not sent again.
 */
export function isOfflineError(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (error instanceof ReaderApiError) return error.status === 0 || (error.status === 503 && offlineNow());
  if (error instanceof Response) return error.status === 503 && offlineNow();
  return false;
}

/** Worth sending again later: offline, or the platform away for a moment (5xx), or the session to be renewed (401). */
const sendAgainLater = (error: unknown) =>
  isOfflineError(error) || (error instanceof ReaderApiError && (error.status >= 500 || error.status === 401));

type Listener = (settled: Settled) => void;
const listeners = new Set<Listener>();
/** Every op a flush settles (sent, refused, overtaken), for the reader to show; the unsubscribe. */
export function onSettled(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const inFlight = new Set<string>();
let running: Promise<void> = Promise.resolve();

/** Sends what waits, in order, one at a time; stops at the first that cannot get through. */
export function flushOutbox(): Promise<void> {
  // A storage failure ends this flush only; the ops stay for the next.
  running = running.then(sendAll).catch(() => {});
  return running;
}

async function sendAll(): Promise<void> {
  const storage = await outboxStorage();
  const ops = await storage.all("ops");
  for (const [index, op] of ops.entries()) {
    inFlight.add(op.clientId);
    const settled = await sendOp(op).finally(() => inFlight.delete(op.clientId));
    if (settled.outcome === "queued") {
      // This one and every one behind it waits: each will be sent later, with the time it was made.
      for (const waiting of ops.slice(index)) if (!waiting.deferred) await storage.put("ops", { ...waiting, deferred: true });
      return;
    }
    await storage.delete("ops", op.seq!);
    if (settled.outcome === "conflict" || (settled.outcome === "refused" && op.deferred)) await keepProblem(settled);
    for (const listener of listeners) listener(settled);
  }
  for (const position of await storage.all("positions")) if (!(await sendPosition(position))) return;
}

async function idOf(target: Target): Promise<number | null> {
  if ("id" in target) return target.id;
  return (await (await outboxStorage()).get("ids", target.clientId))?.id ?? null;
}

async function sendOp(op: OutboxOp): Promise<Settled> {
  // Sent at once, the server's clock orders it (a device whose clock is behind must not lose to its
  // own last change); only a change that had to wait carries the time it was made.
  const editedAt = op.deferred ? op.editedAt : undefined;
  try {
    if (op.kind === "create") {
      const made = await createAnnotation(op.bookId, { ...op.body, clientId: op.clientId });
      await (await outboxStorage()).put("ids", { clientId: op.clientId, id: made.id });
      return { op, outcome: "sent", annotation: made };
    }
    const id = await idOf(op.target);
    // Its create was refused: there is nothing on the server to change.
    if (id === null) return { op, outcome: "refused", error: "It was not saved, so this change could not be made." };
    if (op.kind === "edit") return { op, outcome: "sent", annotation: await updateAnnotation(op.bookId, id, { ...op.patch, editedAt }) };
    await deleteAnnotation(op.bookId, id, editedAt);
    return { op, outcome: "sent", annotation: null };
  } catch (error) {
    if (sendAgainLater(error)) return { op, outcome: "queued" };
    const message = error instanceof Error ? error.message : "Something went wrong.";
    if (!(error instanceof ReaderApiError)) return { op, outcome: "refused", error: message };
    // Already gone (deleted here before, or on another device): what the teacher asked for.
    if (op.kind === "delete" && error.status === 404) return { op, outcome: "sent", annotation: null };
    const body = error.body as { status?: unknown; annotation?: ChangedAnnotation } | null;
    if (error.status === 409 && body?.status === EDITED_ELSEWHERE_STATUS && body.annotation) {
      const current = body.annotation;
      // Its own first try got through and only the answer was lost: nothing was overruled.
      if (op.kind === "edit" && Object.entries(op.patch).every(([key, value]) => current[key as keyof ChangedAnnotation] === value))
        return { op, outcome: "sent", annotation: current };
      return { op, outcome: "conflict", error: message, current };
    }
    return { op, outcome: "refused", error: message };
  }
}

/** The teacher's own words of an op, kept with its problem so nothing they wrote is lost. */
export function wordsOf(op: OutboxOp): string {
  if (op.kind === "create") return op.body.kind === "bookmark" ? (op.body.label ?? "") : (op.body.note ?? "");
  if (op.kind === "edit") return op.patch.note ?? op.patch.label ?? "";
  return op.before.note ?? op.before.label ?? "";
}

async function keepProblem(settled: Extract<Settled, { outcome: "refused" | "conflict" }>) {
  const { op, error } = settled;
  const problem: Problem = { id: op.clientId, bookId: op.bookId, message: error, words: wordsOf(op), at: op.editedAt };
  await (await outboxStorage()).put("problems", problem);
}

/**
 * Keeps `op` and sends what waits: how this op ended (`queued` when it could not be sent yet).
 * A refusal of an op sent at once is the caller's to show, as before the outbox.
 */
export async function submit(op: OutboxOp): Promise<Settled> {
  const storage = await outboxStorage();
  const seq = await storage.put("ops", op);
  const stored = { ...op, seq: Number(seq) };
  let result: Settled | null = null;
  const off = onSettled((settled) => {
    if (settled.op.clientId === op.clientId) result = settled;
  });
  await flushOutbox().finally(off);
  return result ?? { op: stored, outcome: "queued" };
}

/**
 * A create not yet sent is taken back with the changes queued behind it (a highlight made and
 * removed offline costs the server nothing); false when it is on its way (then a deletion follows it).
 */
export async function cancelCreate(clientId: string): Promise<boolean> {
  if (inFlight.has(clientId)) return false;
  const storage = await outboxStorage();
  const ops = await storage.all("ops");
  if (!ops.some((op) => op.kind === "create" && op.clientId === clientId)) return false;
  for (const op of ops)
    if (op.clientId === clientId || (op.kind !== "create" && "clientId" in op.target && op.target.clientId === clientId))
      await storage.delete("ops", op.seq!);
  return true;
}

/** The book's ops still waiting, in order. */
export async function pendingOps(bookId: number): Promise<OutboxOp[]> {
  return (await (await outboxStorage()).all("ops")).filter((op) => op.bookId === bookId);
}

/**
 * Saves where the teacher is in the book: sent at once (leaving the reader must not wait for the
 * storage) and kept until answered, so a reload while offline keeps it; whether it reached the server.
 */
export async function saveReadingPosition(bookId: number, page: number, editedAt = Date.now()): Promise<boolean> {
  const position = { bookId, page, editedAt };
  // The first try is live: the server's clock stamps it. Sent again later, it carries its own time.
  const answer = putReadingPosition(bookId, { page });
  const storage = await outboxStorage();
  await storage.put("positions", position);
  const sent = await settled(position, answer);
  // The network answers again: whatever waited goes too.
  if (sent && (await storage.all("ops")).length) void flushOutbox();
  return sent;
}

/**
 * The PUT of a reading position (`keepalive`: it outlives the page, and leaving the reader is a
 * document load); its status, or null when it did not get through. Without `editedAt` the server's
 * clock stamps it (a live save, the reader's ping).
 */
export function putReadingPosition(bookId: number, body: { page: number; editedAt?: number }): Promise<number | null> {
  return fetch(`/api/reading-progress/${bookId}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
    keepalive: true,
  }).then(
    (response) => response.status,
    () => null,
  );
}

/** Forgets the kept position once answered (saved, or a later one kept) or refused (it would be refused again). */
async function settled(position: PendingPosition, answer: Promise<number | null>): Promise<boolean> {
  const status = await answer;
  if (status === null || sendAgainLater(new ReaderApiError("", status))) return false;
  const storage = await outboxStorage();
  const held = await storage.get("positions", position.bookId);
  // A later save of the same book on this device replaced it meanwhile: that one stays.
  if (held?.editedAt === position.editedAt) await storage.delete("positions", position.bookId);
  return status < 400;
}

const sendPosition = (position: PendingPosition) =>
  settled(position, putReadingPosition(position.bookId, { page: position.page, editedAt: position.editedAt }));

/** The problems to show for a book (sent later and not taken), oldest first. */
export async function listProblems(bookId: number): Promise<Problem[]> {
  return (await (await outboxStorage()).all("problems")).filter((p) => p.bookId === bookId).sort((a, b) => a.at - b.at);
}

export async function dismissProblem(id: string): Promise<void> {
  await (await outboxStorage()).delete("problems", id);
}

/** Keeps the book's list as loaded, highlights without their words (the book's words stay on the server). */
export async function cacheAnnotations(bookId: number, annotations: Annotation[]): Promise<void> {
  const plain = annotations.map((a) => (a.kind === "highlight" ? { ...a, text: null } : a));
  await (await outboxStorage()).put("lists", { bookId, annotations: plain, at: Date.now() });
}

export async function cachedAnnotations(bookId: number): Promise<Annotation[] | null> {
  return (await (await outboxStorage()).get("lists", bookId))?.annotations ?? null;
}

/** Signing out: nothing of this teacher's is left for the next person to sign in on this browser. */
export async function forgetOutbox(): Promise<void> {
  await (await outboxStorage()).clear();
}

let started = false;
/**
 * Sends what waits now (the reader opened online after work done offline: a page served from the
 * app shell's cache may never hear `online`) and again whenever the browser says it is back online
 * (once per page). An empty outbox costs one IndexedDB read and no request.
 */
export function startOutbox(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  window.addEventListener("online", () => void flushOutbox());
  void flushOutbox();
}
