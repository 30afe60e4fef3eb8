/**
 * A school's teachers and their sessions, in the school's object (docs/decisions/0024): who is
 * signed in on which device, who an admin disabled, and the school's session limit. The object
 * calls these inside its single-threaded step, in a transaction where a call writes more than once.
 */
import { ACCOUNT_DISABLED, signedOut } from "../auth/signed-out.ts";
import { ENDED_SESSION_KEPT_MS, LAST_SEEN_RESOLUTION_MS, TEACHER_SESSION_LIFETIME } from "./policy.ts";
import { answer, type ObjectOutcome, refuse } from "./refusals.ts";
import { freeSeatsOfSignedOut, freeSeatsOfTeacher } from "./seats.ts";

export interface SessionTeacher {
  id: number;
  name: string;
  email: string;
}

/** The session's teacher, or why not: `unauthenticated`, with `details.disabled` while an admin has disabled them. */
export type SessionCheck = ObjectOutcome<SessionTeacher>;

export interface SessionRow {
  tokenHash: string;
  device: string | null;
  createdAt: number;
  lastSeenAt: number;
}

/** A sign-in: the session's token (hashed), its teacher and device, and the school's session limit. */
export type NewSession = { tokenHash: string; teacher: SessionTeacher; device: string | null; sessionLimit: number };

export function saveTeacher(sql: SqlStorage, teacher: SessionTeacher) {
  sql.exec(
    "INSERT INTO teachers (id, name, email) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email",
    teacher.id,
    teacher.name,
    teacher.email,
  );
}

/**
 * Signs a teacher in: a new session, and the teacher's oldest beyond the school's session limit
 * ended. A teacher an admin disabled gets none (D1 said otherwise only if the disable is half done).
 */
export function openSession(sql: SqlStorage, input: NewSession, now: number): ObjectOutcome<null> {
  const [row] = sql.exec<{ disabled: number }>("SELECT disabled FROM teachers WHERE id = ?", input.teacher.id).toArray();
  if (row?.disabled) return refuse({ kind: "refused", error: ACCOUNT_DISABLED });
  saveTeacher(sql, input.teacher);
  sql.exec(
    `INSERT INTO sessions (token_hash, teacher_id, device, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    input.tokenHash,
    input.teacher.id,
    input.device,
    now,
    now,
    now + TEACHER_SESSION_LIFETIME.absoluteMs,
  );
  endBeyondLimit(sql, input.teacher.id, input.sessionLimit);
  return answer(null);
}

function endBeyondLimit(sql: SqlStorage, teacherId: number, limit: number): number {
  return sql.exec(
    `DELETE FROM sessions WHERE teacher_id = ? AND ended IS NULL AND token_hash NOT IN (
      SELECT token_hash FROM sessions WHERE teacher_id = ? AND ended IS NULL ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
    teacherId,
    teacherId,
    Math.max(limit, 1),
  ).rowsWritten;
}

/** The session's teacher when it is live (its last-seen refreshed now and then), else why not. */
export function checkSession(sql: SqlStorage, tokenHash: string, now: number): SessionCheck {
  const [row] = sql
    .exec<{
      teacherId: number;
      name: string;
      email: string;
      lastSeenAt: number;
      expiresAt: number;
      ended: string | null;
      disabled: number;
    }>(
      `SELECT s.teacher_id AS teacherId, t.name, t.email, s.last_seen_at AS lastSeenAt, s.expires_at AS expiresAt, s.ended, t.disabled
       FROM sessions s JOIN teachers t ON t.id = s.teacher_id WHERE s.token_hash = ?`,
      tokenHash,
    )
    .toArray();
  if (!row) return refuse(signedOut("none"));
  // A session a disable ended tells its teacher why while they are disabled; once enabled it is just ended.
  if (row.disabled) return refuse(signedOut("disabled"));
  if (row.ended !== null) return refuse(signedOut("none"));
  if (row.expiresAt <= now || row.lastSeenAt + TEACHER_SESSION_LIFETIME.idleMs <= now) {
    sql.exec("DELETE FROM sessions WHERE token_hash = ?", tokenHash);
    return refuse(signedOut("none"));
  }
  if (now - row.lastSeenAt > LAST_SEEN_RESOLUTION_MS) {
    sql.exec("UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?", now, tokenHash);
  }
  return answer({ id: row.teacherId, name: row.name, email: row.email });
}

/** Ends one session (sign-out, or a device revoked); true when it was live. The teacher's last one frees their seats. */
export function endSession(sql: SqlStorage, tokenHash: string, teacherId: number | undefined, now: number): boolean {
  // Given a teacher, only their own session ends (a device revoked from their account page).
  const [ended] = sql
    .exec<{ teacherId: number }>(
      "DELETE FROM sessions WHERE token_hash = ?1 AND (?2 IS NULL OR teacher_id = ?2) AND ended IS NULL RETURNING teacher_id AS teacherId",
      tokenHash,
      teacherId ?? null,
    )
    .toArray();
  if (ended) freeSeatsOfSignedOut(sql, ended.teacherId, now);
  return ended !== undefined;
}

/** Signs a teacher out everywhere, except (optionally) one session; how many ended. No session left frees their seats. */
export function endTeacherSessions(sql: SqlStorage, teacherId: number, keepTokenHash: string | undefined, now: number): number {
  const ended = sql.exec(
    "DELETE FROM sessions WHERE teacher_id = ? AND ended IS NULL AND token_hash != ?",
    teacherId,
    keepTokenHash ?? "",
  ).rowsWritten;
  freeSeatsOfSignedOut(sql, teacherId, now);
  return ended;
}

/** A teacher's live sessions, latest seen first. */
export function listSessions(sql: SqlStorage, teacherId: number, now: number): SessionRow[] {
  return sql
    .exec<{ tokenHash: string; device: string | null; createdAt: number; lastSeenAt: number }>(
      `SELECT token_hash AS tokenHash, device, created_at AS createdAt, last_seen_at AS lastSeenAt FROM sessions
       WHERE teacher_id = ? AND ended IS NULL AND expires_at > ? AND last_seen_at > ?
       ORDER BY last_seen_at DESC, created_at DESC`,
      teacherId,
      now,
      now - TEACHER_SESSION_LIFETIME.idleMs,
    )
    .toArray();
}

/** How many live sessions each of these teachers has (the teacher list's column). */
export function sessionCounts(sql: SqlStorage, teacherIds: number[], now: number): Record<number, number> {
  const counts: Record<number, number> = {};
  if (teacherIds.length === 0) return counts;
  const rows = sql
    .exec<{ teacherId: number; n: number }>(
      `SELECT teacher_id AS teacherId, count(*) AS n FROM sessions
       WHERE ended IS NULL AND expires_at > ? AND last_seen_at > ? AND teacher_id IN (SELECT value FROM json_each(?))
       GROUP BY teacher_id`,
      now,
      now - TEACHER_SESSION_LIFETIME.idleMs,
      JSON.stringify(teacherIds),
    )
    .toArray();
  for (const row of rows) counts[row.teacherId] = row.n;
  return counts;
}

/**
 * An admin disables (or enables) a teacher. Disabling ends their sessions but keeps them a while
 * marked 'disabled', so a teacher coming back is told why; the object refuses them new sessions
 * until enabled again. Returns how many live sessions ended.
 */
export function setTeacherDisabled(sql: SqlStorage, teacher: SessionTeacher, disabled: boolean, now: number): number {
  saveTeacher(sql, teacher);
  sql.exec("UPDATE teachers SET disabled = ? WHERE id = ?", disabled ? 1 : 0, teacher.id);
  if (!disabled) return 0;
  const ended = sql.exec(
    "UPDATE sessions SET ended = 'disabled', expires_at = min(expires_at, ?) WHERE teacher_id = ? AND ended IS NULL",
    now,
    teacher.id,
  ).rowsWritten;
  freeSeatsOfTeacher(sql, teacher.id);
  return ended;
}

/** A teacher's name or address changed: the watermark and the account menu show the new one. */
export function updateTeacher(sql: SqlStorage, teacher: SessionTeacher) {
  sql.exec("UPDATE teachers SET name = ?, email = ? WHERE id = ?", teacher.name, teacher.email, teacher.id);
}

/** A teacher deleted: their sessions, seats, budgets and annotations go; their unflushed usage still counts for the school. */
export function removeTeacher(sql: SqlStorage, teacherId: number) {
  sql.exec("DELETE FROM sessions WHERE teacher_id = ?", teacherId);
  freeSeatsOfTeacher(sql, teacherId);
  sql.exec("DELETE FROM budgets WHERE teacher_id = ?", teacherId);
  sql.exec("DELETE FROM annotations WHERE teacher_id = ?", teacherId);
  sql.exec("DELETE FROM teachers WHERE id = ?", teacherId);
}

/** The school's session limit changed: every teacher's oldest sessions beyond it end; how many. */
export function setSessionLimit(sql: SqlStorage, limit: number): number {
  let ended = 0;
  const teachers = sql.exec<{ id: number }>("SELECT DISTINCT teacher_id AS id FROM sessions WHERE ended IS NULL").toArray();
  for (const { id } of teachers) ended += endBeyondLimit(sql, id, limit);
  return ended;
}

/** Ended sessions are kept a while (to tell a disabled teacher why); then they go. */
export function forgetEndedSessions(sql: SqlStorage, now: number) {
  sql.exec("DELETE FROM sessions WHERE expires_at <= ?", now - ENDED_SESSION_KEPT_MS);
}
