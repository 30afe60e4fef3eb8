/**
 * The school object's annotation calls (docs/decisions/0032): each checks the teacher's session,
 * and a read of a highlight's words costs what reading its page would (reading.ts), before
 * annotations.ts keeps or reads the annotation.
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
import { checkSession } from "./sessions.ts";

/**
 * What an annotation call answers: the value, the session's refusal, the budget's, the seat limit's
 * (every seat held by others), a full book, or no such annotation.
 */
export type AnnotationAnswer<Value> =
  | { status: "ok"; value: Value }
  | { status: "none" }
  | { status: "disabled" }
  | { status: "limit"; waitMs: number }
  | { status: "no-seat"; seats: number }
  | { status: "full" }
  | { status: "not-found" }
  | { status: "invalid"; error: string };

/** Why a list's highlights came without their words: the budget is spent, or every seat is held by others. */
export type Withheld = { reason: "limit"; waitMs: number } | { reason: "no-seat"; seats: number };

/** An annotation as a change answers it: without a highlight's words (the client has them; reading them costs pages). */
export type ChangedAnnotation = Omit<Annotation, "text">;

export type BookRead = { tokenHash: string; bookId: number; pageCount: number; seats?: number | null };
export type AddInput = BookRead & { annotation: NewAnnotation };
export type EditInput = { tokenHash: string; bookId: number; id: number; patch: AnnotationPatch };
export type RemoveInput = { tokenHash: string; bookId: number; id: number };
export type AnnotationList = { annotations: Annotation[]; withheld: Withheld | null };

/**
 * The teacher's annotations of the book. Their highlights' text is read back as the pages it is
 * on would be (a highlight must not copy more of the book than reading it would): one page of the
 * budget for each highlighted page, and a seat of a book with a seat limit (taken when free).
 * Else the text is withheld (null) and `withheld` says why; bookmarks and notes are the teacher's
 * own words and always listed.
 */
export function listWithText(sql: SqlStorage, input: BookRead, now: number, flushSoon: FlushSoon): AnnotationAnswer<AnnotationList> {
  const session = checkSession(sql, input.tokenHash, now);
  if (session.status !== "ok") return session;
  const teacherId = session.teacher.id;
  const cost = highlightedPages(sql, teacherId, input.bookId);
  const read = { teacherId, bookId: input.bookId, pageCount: input.pageCount, seats: input.seats ?? null, cost };
  const refused = cost > 0 ? seatAndSpend(sql, read, now, flushSoon) : null;
  const withheld: Withheld | null =
    refused === null
      ? null
      : refused.status === "limit"
        ? { reason: "limit", waitMs: refused.waitMs }
        : { reason: "no-seat", seats: refused.seats };
  const annotations = listAnnotations(sql, teacherId, input.bookId);
  return {
    status: "ok",
    value: { annotations: withheld === null ? annotations : annotations.map((a) => ({ ...a, text: null })), withheld },
  };
}

/**
 * Keeps a new annotation; a highlight (whose text the answer carries) is a read of its page: a
 * seat of a book with a seat limit, and a page of the budget. The caller runs it in a transaction.
 */
export function addOne(sql: SqlStorage, input: AddInput, now: number, flushSoon: FlushSoon): AnnotationAnswer<Annotation> {
  const session = checkSession(sql, input.tokenHash, now);
  if (session.status !== "ok") return session;
  const teacherId = session.teacher.id;
  if (input.annotation.kind === "highlight") {
    const read = { teacherId, bookId: input.bookId, pageCount: input.pageCount, seats: input.seats ?? null, cost: 1 };
    const refused = seatAndSpend(sql, read, now, flushSoon);
    if (refused) return refused;
  }
  const added = addAnnotation(sql, teacherId, input.bookId, input.annotation, now);
  return added ? { status: "ok", value: added } : { status: "full" };
}

/**
 * Changes the teacher's own annotation (another's, or none: not-found). The answer leaves out a
 * highlight's words: a change costs nothing, so it must not be a way to read them back.
 */
export function editOne(sql: SqlStorage, input: EditInput, now: number): AnnotationAnswer<ChangedAnnotation> {
  const session = checkSession(sql, input.tokenHash, now);
  if (session.status !== "ok") return session;
  const updated = updateAnnotation(sql, session.teacher.id, input.bookId, input.id, input.patch, now);
  if (!updated) return { status: "not-found" };
  if ("error" in updated) return { status: "invalid", error: updated.error };
  const { text: _text, ...changed } = updated;
  return { status: "ok", value: changed };
}

/** Deletes the teacher's own annotation (another's, or none: not-found). */
export function removeOne(sql: SqlStorage, input: RemoveInput, now: number): AnnotationAnswer<null> {
  const session = checkSession(sql, input.tokenHash, now);
  if (session.status !== "ok") return session;
  return deleteAnnotation(sql, session.teacher.id, input.bookId, input.id) ? { status: "ok", value: null } : { status: "not-found" };
}
