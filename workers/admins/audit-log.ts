import { and, count, desc, eq, getTableColumns, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { admins, auditLog, books, schools } from "../db/schema.ts";
import type { AuditFilter } from "./input.ts";

/**
 * The actions the log holds, each as the log's "What" says it: `{}` is what it was done to (put at
 * the end when the label has none). The admin accounts' own actions carry no prefix, as they always have.
 */
export const AUDIT_ACTIONS: Record<string, string> = {
  "sign in": "sign in",
  "sign-in failed": "sign-in failed",
  create: "create admin",
  disable: "disable admin",
  enable: "enable admin",
  "reset-password": "reset the password of admin",
  delete: "delete admin",
  "school.create": "create school",
  "school.update": "update school",
  "school.delete": "delete school",
  "school.import": "import schools",
  "school.import-update": "update schools from a file",
  "school.increase-login-count": "increase the login count of school",
  "school.increase-total-login": "raise the total logins of school",
  "book.create": "create book",
  "book.update": "update book",
  "book.delete": "delete book",
  "book.cover": "replace the cover of book",
  "book.pdf": "replace the PDF of book",
  "book.pages": "prepare the pages of book",
  "book.assign_all": "assign book {} to every school",
  "book_access.grant": "assign books",
  "book_access.revoke": "unassign book",
};

// The part of a book_access id ("12:34") before and after its colon: the school's id and the book's.
const accessSchoolId = sql`CAST(substr(${auditLog.entityId}, 1, instr(${auditLog.entityId}, ':') - 1) AS INTEGER)`;
const accessBookId = sql`CAST(substr(${auditLog.entityId}, instr(${auditLog.entityId}, ':') + 1) AS INTEGER)`;
const entityIdNumber = sql`CAST(${auditLog.entityId} AS INTEGER)`;

/**
 * Entries with the names of what they were done to, resolved now (each a primary-key lookup per
 * row): the admin's e-mail, the school's name, the book's title; null when that row is gone.
 */
function entriesWithNames(db: Db) {
  return db
    .select({ ...getTableColumns(auditLog), targetAdmin: admins.email, targetSchool: schools.name, targetBook: books.title })
    .from(auditLog)
    .leftJoin(admins, sql`${auditLog.entityType} = 'admin' AND ${admins.id} = ${entityIdNumber}`)
    .leftJoin(
      schools,
      sql`${schools.id} = CASE ${auditLog.entityType} WHEN 'school' THEN ${entityIdNumber} WHEN 'book_access' THEN ${accessSchoolId} END`,
    )
    .leftJoin(
      books,
      sql`${books.id} = CASE ${auditLog.entityType} WHEN 'book' THEN ${entityIdNumber} WHEN 'book_access' THEN ${accessBookId} END`,
    );
}

type NamedRow = Awaited<ReturnType<ReturnType<typeof entriesWithNames>["all"]>>[number];

/** The filters as SQL: who and what walk audit_log_admin_at_idx / audit_log_action_at_idx, a date range alone audit_log_at_idx. */
export function auditWhere(filter: AuditFilter): SQL | undefined {
  return and(
    filter.who === undefined ? undefined : eq(auditLog.adminEmail, filter.who),
    filter.what === undefined ? undefined : eq(auditLog.action, filter.what),
    filter.fromMs === undefined ? undefined : gte(auditLog.at, filter.fromMs),
    filter.toMs === undefined ? undefined : lt(auditLog.at, filter.toMs),
  );
}

const plural = (n: number, one: string) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;
const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);
const field = (value: unknown, key: string) => (value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined);

/** The name of an entry's target, or "#id (deleted)" when its row is gone. */
function targetName(row: NamedRow): string | null {
  const id = row.entityId;
  if (id === null) return null;
  const gone = (ref: string) => `#${ref} (deleted)`;
  switch (row.entityType) {
    case "admin":
      // Accounts created before ids were recorded are named by their e-mail.
      return row.targetAdmin ?? (/^\d+$/.test(id) ? gone(id) : id);
    case "school":
      return row.targetSchool ?? gone(id);
    case "book":
      return row.targetBook ? `“${row.targetBook}”` : gone(id);
    case "book_access": {
      const [schoolId, bookId] = id.split(":");
      return `${row.targetBook ? `“${row.targetBook}”` : gone(bookId ?? "?")} from ${row.targetSchool ?? gone(schoolId ?? "?")}`;
    }
    default:
      return `#${id}`;
  }
}

/** The actions for the log's "What" filter: the action and its label without the target. */
export const auditActionOptions = () => Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label: label.replace(" {}", "") }));

/** An entry as the log says it: "disable admin ana@example.org", "create school Lincoln High", "assign books: 3 books to 2 schools". */
export function describeAuditEntry(row: NamedRow): string {
  const label = AUDIT_ACTIONS[row.action] ?? `${row.action} ${row.entityType.replaceAll("_", " ")}`;
  if (row.action === "sign in" || row.action === "sign-in failed") {
    const door = field(row.after, "door") === "superadmin" ? " (superadmin)" : "";
    const reason = field(row.after, "reason");
    return `${label}${door}${typeof reason === "string" ? `: ${reason}` : ""}`;
  }
  if (row.action === "school.import" || row.action === "school.import-update") {
    return `${label}: ${plural(lengthOf(row.after), "school")}`;
  }
  if (row.action === "book_access.grant") {
    return `${label}: ${plural(lengthOf(field(row.after, "bookIds")), "book")} to ${plural(lengthOf(field(row.after, "schoolIds")), "school")}`;
  }
  const target = targetName(row) ?? "";
  const said = label.includes("{}") ? label.replace("{}", target) : `${label} ${target}`.trim();
  const assigned = row.action === "book.assign_all" ? field(row.after, "assigned") : undefined;
  return typeof assigned === "number" ? `${said} (${assigned.toLocaleString("en-US")} new)` : said;
}

function present(row: NamedRow) {
  const { targetAdmin: _a, targetSchool: _s, targetBook: _b, ...entry } = row;
  return { ...entry, what: describeAuditEntry(row) };
}

export type AuditEntry = ReturnType<typeof present>;

/** One page of the filtered log, newest first, with how many entries the filter matches. */
export async function auditPage(db: Db, filter: AuditFilter, page: number, pageSize: number) {
  const where = auditWhere(filter);
  const [rows, [total]] = await db.batch([
    entriesWithNames(db)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { entries: rows.map(present), total: total?.n ?? 0, page, pageSize };
}

/** The next `limit` entries of the filtered log after `after` (newest first), for the CSV export's pages. */
export async function auditEntriesAfter(db: Db, filter: AuditFilter, after: { at: number; id: number } | null, limit: number) {
  const keyset = after ? sql`(${auditLog.at} < ${after.at} OR (${auditLog.at} = ${after.at} AND ${auditLog.id} < ${after.id}))` : undefined;
  const rows = await entriesWithNames(db)
    .where(and(auditWhere(filter), keyset))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
  return rows.map(present);
}
