/**
 * The D1 side of an erasure (docs/decisions/0045) as the statements of one batch, so it happens
 * whole or not at all: every trace of a person goes from D1 (their account's name, address, mobile,
 * password, reading settings and coordinator role; their sessions, one-time codes, Google or
 * Microsoft sign-ins in flight, favourites, reading progress and sign-in throttles; their name and
 * address in older audit entries), and their teacher row stays as an erased row with no person in
 * it (teachers.erased_at), so reading_daily and login_events keep counting under its id.
 *
 * The statements name their teachers by SQL, not by a list read beforehand: a teacher registering
 * while the batch runs is either erased with the others or not touched at all.
 */
import { type SQL, sql } from "drizzle-orm";
import type { AuditActor } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { auditWhere } from "../schools/audit.ts";
import { ERASED, ERASED_EMAIL_PREFIX } from "./live-teachers.ts";

/** Whose personal data goes: every teacher of a school, or one teacher (their own request). */
export type ErasureScope = { schoolId: number } | { schoolId: number; teacher: { id: number; email: string } };

const oneTeacher = (scope: ErasureScope) => ("teacher" in scope ? scope.teacher : null);

/** The scope's teachers: still accounts (`live`), or any (erased rows too, for a repeat that tidies what a race left). */
function teachersOf(scope: ErasureScope, which: "live" | "any", column = sql.raw("id")): SQL {
  const teacher = oneTeacher(scope);
  const one = teacher ? sql` AND id = ${teacher.id}` : sql``;
  const live = which === "live" ? sql` AND erased_at IS NULL` : sql``;
  return sql`SELECT ${column} FROM teachers WHERE school_id = ${scope.schoolId}${one}${live}`;
}

/** An audit entry's JSON with a person's fields overwritten where it has them. */
const redacted = (column: string) =>
  sql.raw(`CASE WHEN json_valid(${column}) THEN json_replace(${column}, '$.name', '${ERASED}', '$.email', '${ERASED}',
    '$.mobile', '${ERASED}') ELSE ${column} END`);

/**
 * Older audit entries keep what happened and who did it, but no longer the erased person's name,
 * address or mobile: the entries about them (a disable, a reset, a seat freed), the ones they wrote
 * as a coordinator (their address in the actor column), and refused Google or Microsoft sign-ins
 * with their address (for a school: every such refusal of the school, whoever tried).
 */
function auditRedactions(scope: ErasureScope): SQL[] {
  const teacher = oneTeacher(scope);
  const refusedBy = teacher ? sql` AND admin_email = ${teacher.email}` : sql``;
  return [
    sql`UPDATE audit_log SET before = ${redacted("before")}, after = ${redacted("after")}
      WHERE entity_type = 'teacher' AND entity_id IN (${teachersOf(scope, "any", sql.raw("CAST(id AS TEXT)"))})`,
    sql`UPDATE audit_log SET admin_email = ${`${ERASED} (coordinator)`}
      WHERE admin_id IS NULL AND admin_email IN (${teachersOf(scope, "live", sql.raw("email || ' (coordinator)'"))})`,
    sql`UPDATE audit_log SET admin_email = ${ERASED}, after = json_replace(after, '$.email', ${ERASED})
      WHERE action = 'teacher.sign-in-refused' AND entity_type = 'school' AND entity_id = ${String(scope.schoolId)}
        AND json_extract(after, '$.email') IS NOT NULL${refusedBy}`,
  ];
}

/** Sign-in throttles are keyed by school and address (workers/auth/login-guard.ts): the ones of the scope go. */
function throttleKeys(scope: ErasureScope): SQL {
  const teacher = oneTeacher(scope);
  const school = scope.schoolId;
  // Every key starting with a prefix: the range up to the prefix with its last ':' raised to ';'.
  const startingWith = (prefix: string) => sql`(key > ${prefix} AND key < ${`${prefix.slice(0, -1)};`})`;
  if (teacher)
    return sql`DELETE FROM rate_limits WHERE key = ${`login:account:${school}:${teacher.email}`}
      OR ${startingWith(`login:pair:${school}:${teacher.email}:`)}`;
  return sql`DELETE FROM rate_limits WHERE ${startingWith(`login:account:${school}:`)} OR ${startingWith(`login:pair:${school}:`)}`;
}

/** What a person kept apart from their account row: each row of theirs goes. */
function personalRows(scope: ErasureScope): SQL[] {
  const teacher = oneTeacher(scope);
  const any = teachersOf(scope, "any");
  return [
    teacher
      ? sql`DELETE FROM otp_codes WHERE school_id = ${scope.schoolId} AND email = ${teacher.email}`
      : sql`DELETE FROM otp_codes WHERE school_id = ${scope.schoolId}`,
    sql`DELETE FROM sessions WHERE kind = 'teacher' AND teacher_id IN (${any})`,
    teacher
      ? sql`DELETE FROM oidc_requests WHERE teacher_id = ${teacher.id}`
      : sql`DELETE FROM oidc_requests WHERE school_id = ${scope.schoolId}`,
    sql`DELETE FROM favourites WHERE teacher_id IN (${any})`,
    sql`DELETE FROM reading_progress WHERE teacher_id IN (${any})`,
    throttleKeys(scope),
  ];
}

/** The account becomes an erased row: nothing of the person, no way to sign in, no role. Its id and last active day stay. */
function eraseAccounts(scope: ErasureScope, now: number): SQL {
  return sql`UPDATE teachers SET name = '', email = ${ERASED_EMAIL_PREFIX} || id, mobile = '', password_hash = '',
      disabled = 1, coordinator = 0, reading_settings = NULL, erased_at = ${now}
    WHERE id IN (${teachersOf(scope, "live")})`;
}

/**
 * The batch: the erasure's own audit entry first (who, when, how many; never a name), where
 * `auditCondition` holds; older entries redacted; the person's rows deleted; the accounts erased;
 * and last the ids of the scope's erased rows, for the school's object. So the last two answers are
 * the accounts erased now (their `changes`) and the erased rows' ids.
 */
export function erasureBatch(
  db: Db,
  actor: AuditActor,
  scope: ErasureScope,
  audit: { action: string; entityType: string; entityId: number; condition: SQL },
  now: number,
): SQL[] {
  const accounts = sql`(SELECT count(*) FROM (${teachersOf(scope, "live")}))`;
  const entry = auditWhere(
    db,
    actor,
    { action: audit.action, entityType: audit.entityType, entityId: audit.entityId, after: sql`json_object('teachers', ${accounts})` },
    audit.condition,
    now,
  ).getSQL();
  return [
    entry,
    ...auditRedactions(scope),
    ...personalRows(scope),
    eraseAccounts(scope, now),
    sql`SELECT id FROM teachers WHERE id IN (${teachersOf(scope, "any")}) AND erased_at IS NOT NULL`,
  ];
}
