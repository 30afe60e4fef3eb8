/**
 * The school object's annotation calls (docs/decisions/0032): the object has checked the teacher's
 * session (its withSession); a read of a highlight's words costs what reading its page would
 * (reading.ts), before annotations.ts keeps or reads the annotation.
 */

import { CLIENT_ID_TAKEN } from "#shared/rules/offline-sync.ts";
import {
  type Annotation,
  type AnnotationPatch,
  addAnnotation,
  clientAnnotation,
  deleteAnnotation,
  highlightedPages,
  listAnnotations,
  type NewAnnotation,
  updateAnnotation,
} from "./annotations.ts";
import { type FlushSoon, seatAndSpend } from "./reading.ts";
import { ANNOTATION_NOT_FOUND, answer, BOOK_FULL, type ObjectFailure, type ObjectOutcome, refuse } from "./refusals.ts";

/** An annotation as a change answers it: without a highlight's words (the client has them; reading them costs pages). */
export type ChangedAnnotation = Omit<Annotation, "text">;

/** Every call names the session (the object checks it) and the book. */
type SessionBook = { tokenHash: string; bookId: number };
export type BookRead = SessionBook & { pageCount: number; seats?: number | null };
/** `clientId`: the client's idempotency key (docs/decisions/0051); the same id again answers the first annotation. */
export type AddInput = BookRead & { annotation: NewAnnotation; clientId?: string };
/** `editedAt`: when the client made the change (checked by the Worker); absent, now. The later edit wins. */
export type EditInput = SessionBook & { id: number; patch: AnnotationPatch; editedAt?: number };
export type RemoveInput = SessionBook & { id: number; editedAt?: number };
/** A create's answer: the annotation, whether an earlier request with the same client id made it, and why its words were withheld. */
export type Added = { annotation: Annotation; replayed: boolean; withheld: ObjectFailure | null };
/** A deletion's answer: null once deleted, or the annotation kept because it was changed after the client's deletion. */
export type Removed = ChangedAnnotation | null;
/** A change's answer: applied, or not because the annotation (as kept) was changed after the client's edit. */
export type Edited = { applied: boolean; annotation: ChangedAnnotation };

/** The client's time, never later than the object's own clock (a clock a little ahead must not block the next edit). */
const editTime = (editedAt: number | undefined, now: number) => Math.min(editedAt ?? now, now);
const withoutText = ({ text: _text, ...rest }: Annotation): ChangedAnnotation => rest;
/**
 * The teacher's annotations; `withheld`, when their highlights' words were left out, says why:
 * the budget spent (`throttled`) or every seat held by others (`conflict`, `no-seat`).
 */
export type AnnotationList = { annotations: Annotation[]; withheld: ObjectFailure | null };

/**
 * The teacher's annotations of the book. Their highlights' text is read back as the pages it is
 * on would be (a highlight must not copy more of the book than reading it would): one page of the
 * budget for each highlighted page, and a seat of a book with a seat limit (taken when free).
 * Else the text is withheld (null) and `withheld` says why; bookmarks and notes are the teacher's
 * own words and always listed.
 */
export function listWithText(
  sql: SqlStorage,
  teacherId: number,
  input: BookRead,
  now: number,
  flushSoon: FlushSoon,
): ObjectOutcome<AnnotationList> {
  const cost = highlightedPages(sql, teacherId, input.bookId);
  const withheld = cost > 0 ? seatAndSpend(sql, teacherId, input, cost, now, flushSoon) : null;
  const annotations = listAnnotations(sql, teacherId, input.bookId);
  return answer({ annotations: withheld === null ? annotations : annotations.map((a) => ({ ...a, text: null })), withheld });
}

/**
 * Keeps a new annotation; a highlight (whose text the answer carries) is a read of its page: a
 * seat of a book with a seat limit, and a page of the budget. The caller runs it in a transaction.
 * A client id the teacher already made one under answers that one (its answer was lost on the way):
 * a highlight's words again only if the seat and budget allow (else withheld, as a list withholds them).
 */
export function addOne(sql: SqlStorage, teacherId: number, input: AddInput, now: number, flushSoon: FlushSoon): ObjectOutcome<Added> {
  const earlier = input.clientId ? clientAnnotation(sql, teacherId, input.clientId) : null;
  if (earlier) {
    if (earlier.bookId !== input.bookId) return refuse({ kind: "conflict", error: CLIENT_ID_TAKEN });
    const { annotation } = earlier;
    const withheld = annotation.kind === "highlight" ? seatAndSpend(sql, teacherId, input, 1, now, flushSoon) : null;
    return answer({ annotation: withheld ? { ...annotation, text: null } : annotation, replayed: true, withheld });
  }
  if (input.annotation.kind === "highlight") {
    const refused = seatAndSpend(sql, teacherId, input, 1, now, flushSoon);
    if (refused) return refuse(refused);
  }
  const added = addAnnotation(sql, teacherId, input.bookId, input.annotation, now, input.clientId ?? null);
  return added ? answer({ annotation: added, replayed: false, withheld: null }) : refuse({ kind: "conflict", error: BOOK_FULL });
}

/**
 * Changes the teacher's own annotation (another's, or none: not-found). The answer leaves out a
 * highlight's words: a change costs nothing, so it must not be a way to read them back.
 */
export function editOne(sql: SqlStorage, teacherId: number, input: EditInput, now: number): ObjectOutcome<Edited> {
  const updated = updateAnnotation(sql, teacherId, input.bookId, input.id, input.patch, editTime(input.editedAt, now));
  if (!updated) return refuse({ kind: "not-found", error: ANNOTATION_NOT_FOUND });
  if ("error" in updated) return refuse({ kind: "invalid", error: updated.error });
  if ("newer" in updated) return answer({ applied: false, annotation: withoutText(updated.newer) });
  return answer({ applied: true, annotation: withoutText(updated) });
}

/**
 * Deletes the teacher's own annotation (another's, or none: not-found); null once deleted, or the
 * annotation kept because it was changed after the client's deletion (docs/decisions/0051).
 */
export function removeOne(sql: SqlStorage, teacherId: number, input: RemoveInput, now: number): ObjectOutcome<Removed> {
  const at = input.editedAt === undefined ? undefined : editTime(input.editedAt, now);
  const removed = deleteAnnotation(sql, teacherId, input.bookId, input.id, at);
  if (removed === false) return refuse({ kind: "not-found", error: ANNOTATION_NOT_FOUND });
  return answer(removed === true ? null : withoutText(removed.newer));
}
