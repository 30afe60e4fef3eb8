/**
 * A teacher whose personal data was erased keeps a row with no person in it (docs/decisions/0045):
 * its id still carries the school's reading figures. It is no account: the lists, the counts
 * against a school's teacher limit and every action on a teacher leave it out with these.
 */
import { isNull, sql } from "drizzle-orm";
import { teachers } from "../db/schema.ts";

/** drizzle's condition: the teacher is an account, not an erased row. */
export const liveTeacher = isNull(teachers.erasedAt);

/** A teacher's name and address where the row is an account; null for an erased row (an export's column). */
export const liveName = sql<string | null>`CASE WHEN ${teachers.erasedAt} IS NULL THEN ${teachers.name} END`;
export const liveEmail = sql<string | null>`CASE WHEN ${teachers.erasedAt} IS NULL THEN ${teachers.email} END`;

/** The same in hand-written SQL over `teachers` (unqualified). */
export const LIVE_TEACHER = sql.raw("erased_at IS NULL");

/** What an erased row holds in place of the address: no e-mail a person could type, unique per row. */
export const ERASED_EMAIL_PREFIX = "erased:";

/** What erasure writes over a name or an address that an older record (the audit log) kept. */
export const ERASED = "(erased)";
