/**
 * A school object's first call: what D1 held of the school's hot state in the previous design
 * (teacher sessions, page budgets, disabled teachers and today's reading marks) moves into the
 * object, once per school.
 */
import { sql as d1 } from "drizzle-orm";
import { dayOf } from "#shared/rules/licence.ts";
import { getDb, runTransaction } from "../db/client.ts";
import { ENDED_SESSION_KEPT_MS } from "./policy.ts";
import { saveTeacher } from "./sessions.ts";

export type HotStateInD1 = NonNullable<Awaited<ReturnType<typeof readHotStateFromD1>>>;

/**
 * What D1 holds of the school's hot state; null when D1 has no such school. Sessions and budgets
 * stay in D1 unread (a session's row still tells an old cookie which school it belongs to) until
 * the sweeps take them.
 */
export async function readHotStateFromD1(database: D1Database, schoolId: number, now: number) {
  // One round trip: five reads in one batch.
  const results = await runTransaction(getDb(database), [
    d1`
      SELECT s.token_hash AS tokenHash, s.teacher_id AS teacherId, s.device, s.created_at AS createdAt,
        s.last_seen_at AS lastSeenAt, s.expires_at AS expiresAt, t.disabled, t.name, t.email
      FROM sessions s JOIN teachers t ON t.id = s.teacher_id
      WHERE s.kind = 'teacher' AND t.school_id = ${schoolId} AND s.expires_at > ${now - ENDED_SESSION_KEPT_MS}`,
    d1`
      SELECT r.key, r.count, r.window_start AS windowStart FROM rate_limits r
      WHERE r.key >= 'pages:' AND r.key < 'pages;' AND r.window_start > ${now - 24 * 3600_000}
        AND CAST(substr(r.key, 9, instr(substr(r.key, 9), ':') - 1) AS INTEGER) IN (SELECT id FROM teachers WHERE school_id = ${schoolId})`,
    d1`
      SELECT day, teacher_id AS teacherId, book_id AS bookId, coalesce(last_at, 0) AS lastAt FROM reading_daily
      WHERE school_id = ${schoolId} AND day >= ${dayOf(now - 24 * 3600_000)}`,
    // An erased teacher's row (disabled, no person in it) is no one to tell they are disabled.
    d1`SELECT id, name, email FROM teachers WHERE school_id = ${schoolId} AND disabled = 1 AND erased_at IS NULL`,
    d1`SELECT id FROM schools WHERE id = ${schoolId}`,
  ]);
  const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];
  const sessions = rows<{
    tokenHash: string;
    teacherId: number;
    device: string | null;
    createdAt: number;
    lastSeenAt: number;
    expiresAt: number;
    disabled: number;
    name: string;
    email: string;
  }>(0);
  const budgets = rows<{ key: string; count: number; windowStart: number }>(1);
  const days = rows<{ day: string; teacherId: number; bookId: number; lastAt: number }>(2);
  const disabled = rows<{ id: number; name: string; email: string }>(3);
  return rows(4).length ? { sessions, budgets, days, disabled } : null;
}

/** Keeps what readHotStateFromD1 found (inside the caller's transaction). */
export function moveIn(sql: SqlStorage, { sessions, budgets, days, disabled }: HotStateInD1) {
  for (const s of sessions) {
    saveTeacher(sql, { id: s.teacherId, name: s.name, email: s.email });
    sql.exec(
      `INSERT OR IGNORE INTO sessions (token_hash, teacher_id, device, created_at, last_seen_at, expires_at, ended)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      s.tokenHash,
      s.teacherId,
      s.device,
      s.createdAt,
      s.lastSeenAt,
      s.expiresAt,
      s.disabled ? "disabled" : null,
    );
  }
  for (const b of budgets) {
    const [, window, teacherId, bookId] = b.key.split(":");
    if ((window !== "h" && window !== "d") || !teacherId || !bookId) continue;
    sql.exec(
      "INSERT OR REPLACE INTO budgets (teacher_id, book_id, window, count, window_start) VALUES (?, ?, ?, ?, ?)",
      Number(teacherId),
      Number(bookId),
      window,
      b.count,
      b.windowStart,
    );
  }
  for (const d of days) {
    sql.exec(
      "INSERT OR REPLACE INTO reading_days (day, teacher_id, book_id, last_at) VALUES (?, ?, ?, ?)",
      d.day,
      d.teacherId,
      d.bookId,
      d.lastAt,
    );
  }
  for (const t of disabled) {
    saveTeacher(sql, t);
    sql.exec("UPDATE teachers SET disabled = 1 WHERE id = ?", t.id);
  }
}
