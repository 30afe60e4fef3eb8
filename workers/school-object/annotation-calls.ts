/**
 * The school object's annotation calls (docs/decisions/0032): the object has checked the teacher's
 * session (its withSession); a read of a highlight's words costs what reading its page would
 * (reading.ts), before annotations.ts keeps or reads the annotation.
 */
import {
  type Annotation,
  type AnnotationPatch,
  addAnnotation,
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
export type AddInput = BookRead & { annotation: NewAnnotation };
export type EditInput = SessionBook & { id: number; patch: AnnotationPatch };
export type RemoveInput = SessionBook & { id: number };
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
 */
export function addOne(sql: SqlStorage, teacherId: number, input: AddInput, now: number, flushSoon: FlushSoon): ObjectOutcome<Annotation> {
  if (input.annotation.kind === "highlight") {
    const refused = seatAndSpend(sql, teacherId, input, 1, now, flushSoon);
    if (refused) return refuse(refused);
  }
  const added = addAnnotation(sql, teacherId, input.bookId, input.annotation, now);
  return added ? answer(added) : refuse({ kind: "conflict", error: BOOK_FULL });
}

/**
 * Changes the teacher's own annotation (another's, or none: not-found). The answer leaves out a
 * highlight's words: a change costs nothing, so it must not be a way to read them back.
 */
export function editOne(sql: SqlStorage, teacherId: number, input: EditInput, now: number): ObjectOutcome<ChangedAnnotation> {
  const updated = updateAnnotation(sql, teacherId, input.bookId, input.id, input.patch, now);
  if (!updated) return refuse({ kind: "not-found", error: ANNOTATION_NOT_FOUND });
  if ("error" in updated) return refuse({ kind: "invalid", error: updated.error });
  const { text: _text, ...changed } = updated;
  return answer(changed);
}

/** Deletes the teacher's own annotation (another's, or none: not-found). */
export function removeOne(sql: SqlStorage, teacherId: number, input: RemoveInput): ObjectOutcome<null> {
  return deleteAnnotation(sql, teacherId, input.bookId, input.id)
    ? answer(null)
    : refuse({ kind: "not-found", error: ANNOTATION_NOT_FOUND });
}
