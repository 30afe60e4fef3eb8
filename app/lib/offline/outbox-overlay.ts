import type { Annotation, ChangedAnnotation } from "../reader/reader-api.ts";
import type { OutboxOp, Target } from "./outbox-store.ts";

/** An annotation as the reader shows it: `pending` while a change to it waits in the outbox. */
export type ShownAnnotation = Annotation & { pending?: boolean; clientId?: string };

const tempIds = new Map<string, number>();
/**
 * The id a create not yet answered is shown under: negative (the server's are positive), the same
 * for the same client id for the life of the page, so a change made to it finds it.
 */
export function pendingId(clientId: string): number {
  return tempIds.get(clientId) ?? tempIds.set(clientId, -(tempIds.size + 1)).get(clientId)!;
}

/** Whether `a` is the annotation `target` names. */
export const isTarget = (a: ShownAnnotation, target: Target) =>
  "id" in target ? a.id === target.id : a.clientId === target.clientId || a.id === pendingId(target.clientId);

/** What a change's answer and the annotation shown make together: a highlight's words stay (the answer leaves them out). */
export const merged = (shown: ShownAnnotation, answer: ChangedAnnotation): ShownAnnotation => ({ ...shown, ...answer, pending: false });

/**
 * The list as the teacher left it on this device: the server's (or the cached) list with every op
 * still waiting laid over it, in the order made, each changed annotation marked pending.
 */
export function withPending(list: Annotation[], ops: OutboxOp[]): ShownAnnotation[] {
  let shown: ShownAnnotation[] = [...list];
  for (const op of ops) {
    if (op.kind === "create") {
      const { body } = op;
      shown.push({
        id: pendingId(op.clientId),
        clientId: op.clientId,
        kind: body.kind,
        page: body.page,
        label: body.kind === "bookmark" ? (body.label ?? null) : null,
        note: body.kind === "bookmark" ? null : (body.note ?? null),
        colour: body.kind === "highlight" ? body.colour : null,
        start: body.kind === "highlight" ? body.start : null,
        end: body.kind === "highlight" ? body.end : null,
        text: null,
        createdAt: op.editedAt,
        updatedAt: op.editedAt,
        pending: true,
      });
    } else if (op.kind === "edit") {
      shown = shown.map((a) => (isTarget(a, op.target) ? { ...a, ...op.patch, updatedAt: op.editedAt, pending: true } : a));
    } else {
      shown = shown.filter((a) => !isTarget(a, op.target));
    }
  }
  return shown.sort(byPage);
}

/** Page order, and on a page the order made: the server's ids, then the ones waiting (negative ids) as they were made. */
const order = (a: ShownAnnotation) => (a.id < 0 ? 2 ** 40 - a.id : a.id);
export const byPage = (a: ShownAnnotation, b: ShownAnnotation) => a.page - b.page || order(a) - order(b);
