/**
 * Who holds the seats of a school's seat-limited books now, and freeing one (issue 41,
 * docs/decisions/0028): for the admin's school page and the coordinator's My school. The holders
 * live in the school's object (a seat is held for SEAT_HOLD_MS after the holder's last page); the
 * books' titles and seat limits come from D1. Freeing a seat is a command with its audit entry,
 * written only when a seat was freed; the freed teacher reads on only if a seat is free at their
 * next page, like anyone else.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { type AuditActor, auditEntry } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, schools, teachers } from "../db/schema.ts";
import { liveTeacher } from "../erasure/live-teachers.ts";
import { adminCommand, teacherCommand } from "../kernel/command.ts";
import { done, failed, failure, type Outcome } from "../kernel/failure.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { coordinatorActor, findCoordinator, NOT_COORDINATOR } from "../teachers/coordinators.ts";
import { idFrom } from "../validation/schemas.ts";

export const BOOK_NOT_FOUND = "Book not found";
export const TEACHER_NOT_FOUND = "Teacher not found";
const SCHOOL_NOT_FOUND = "School not found";

/** One held seat of a seat-limited book: whose, and when they last read a page of it. */
export interface HeldSeat {
  bookId: number;
  title: string;
  /** The licence's seat limit. */
  seats: number;
  /** How many of them are held now. */
  held: number;
  teacherId: number;
  name: string;
  email: string;
  lastAt: number;
}

/**
 * The seats held now of the school's books whose licence limits them, by title and then latest
 * read first; null when there is no such school. A book without a limit is left out: nobody waits
 * for its seats.
 */
export async function schoolSeatHolders(db: Db, hot: HotState, schoolId: number, now = Date.now()): Promise<HeldSeat[] | null> {
  const [holders, limited] = await Promise.all([
    schoolObject(hot, schoolId).seatHolders(schoolId, now),
    db
      .select({ bookId: bookAccess.bookId, title: books.title, seats: bookAccess.seats })
      .from(schools)
      .leftJoin(bookAccess, and(eq(bookAccess.schoolId, schools.id), isNotNull(bookAccess.seats)))
      .leftJoin(books, eq(books.id, bookAccess.bookId))
      .where(eq(schools.id, schoolId)),
  ]);
  if (limited.length === 0) return null;
  const byBook = new Map(limited.flatMap((row) => (row.bookId !== null && row.title !== null ? [[row.bookId, row] as const] : [])));
  const held = new Map<number, number>();
  for (const h of holders) held.set(h.bookId, (held.get(h.bookId) ?? 0) + 1);
  return holders
    .flatMap((h) => {
      const book = byBook.get(h.bookId);
      return book ? [{ ...h, title: book.title ?? "", seats: book.seats ?? 0, held: held.get(h.bookId) ?? 0 }] : [];
    })
    .sort((a, b) => a.title.localeCompare(b.title) || a.bookId - b.bookId || b.lastAt - a.lastAt);
}

type FreedSeat = { message: string; freed: boolean; teacher: { id: number; name: string }; book: { id: number; title: string } };

/**
 * Frees the teacher's seat of the book (both the school's, else 404): the object first, then the
 * audit entry when a seat was freed. A seat already given back answers so, and writes nothing.
 */
export async function freeSeat(
  db: Db,
  hot: HotState,
  actor: AuditActor,
  schoolId: number,
  bookId: number,
  teacherId: number,
  now = Date.now(),
): Promise<Outcome<FreedSeat>> {
  const [[teacher], [book]] = await db.batch([
    db
      .select({ id: teachers.id, name: teachers.name, email: teachers.email })
      .from(teachers)
      .where(and(eq(teachers.id, teacherId), eq(teachers.schoolId, schoolId), liveTeacher)),
    db
      .select({ id: books.id, title: books.title })
      .from(bookAccess)
      .innerJoin(books, eq(books.id, bookAccess.bookId))
      .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId))),
  ]);
  if (!teacher) return failure("not-found", TEACHER_NOT_FOUND);
  if (!book) return failure("not-found", BOOK_NOT_FOUND);
  const freed = await schoolObject(hot, schoolId).freeSeat(schoolId, { bookId, teacherId, now });
  if (freed) {
    await auditEntry(
      db,
      actor,
      {
        action: "seat.free",
        entityType: "teacher",
        entityId: teacher.id,
        before: { name: teacher.name, email: teacher.email, bookId: book.id, title: book.title, seat: "held" },
        after: { name: teacher.name, email: teacher.email, bookId: book.id, title: book.title, seat: "free" },
      },
      now,
    );
  }
  const message = freed ? `Freed ${teacher.name}'s seat of ${book.title}.` : `${teacher.name} no longer held a seat of ${book.title}.`;
  return done({ message, freed, teacher: { id: teacher.id, name: teacher.name }, book });
}

/** `DELETE /api/schools/:id/seats/:bookId/:teacherId` and the school page's "Free seat". */
export const freeSeatCommand = adminCommand(
  z.object({ id: z.unknown(), bookId: z.unknown(), teacherId: z.unknown() }),
  async ({ db, env, actor }, input) => {
    const [schoolId, bookId, teacherId] = [idFrom(input.id), idFrom(input.bookId), idFrom(input.teacherId)];
    if (!schoolId) return failed({ kind: "not-found", error: SCHOOL_NOT_FOUND });
    if (!teacherId) return failed({ kind: "not-found", error: TEACHER_NOT_FOUND });
    if (!bookId) return failed({ kind: "not-found", error: BOOK_NOT_FOUND });
    return freeSeat(db, env, actor, schoolId, bookId, teacherId);
  },
);

/**
 * `DELETE /api/schools/slug/:slug/coordinator/seats/:bookId/:teacherId` and My school's "Free
 * seat": the school is the coordinator's session's, never the request's; a plain teacher is 403.
 */
export const coordinatorFreeSeatCommand = teacherCommand(
  z.object({ bookId: z.unknown(), teacherId: z.unknown() }),
  async ({ db, env, who }, input) => {
    const coordinator = await findCoordinator(db, who);
    if (!coordinator) return failed({ kind: "refused", error: NOT_COORDINATOR });
    const [bookId, teacherId] = [idFrom(input.bookId), idFrom(input.teacherId)];
    if (!teacherId) return failed({ kind: "not-found", error: TEACHER_NOT_FOUND });
    if (!bookId) return failed({ kind: "not-found", error: BOOK_NOT_FOUND });
    return freeSeat(db, env, coordinatorActor(coordinator.email), who.schoolId, bookId, teacherId);
  },
);
