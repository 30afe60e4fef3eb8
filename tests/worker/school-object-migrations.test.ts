// The school object's storage as numbered, append-only migrations (docs/decisions/0042): an object
// made before they were recorded (its tables there, no record) takes migration 1 as a no-op and
// keeps its data; a migration appended to the list runs once, in a transaction with its record.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../workers/auth/tokens.ts";
import { MIGRATIONS, migrate, type StorageMigration } from "../../workers/school-object/migrations.ts";
import { createSchool, schoolStub } from "./helpers.ts";

/** The object's own tables and indexes as SQLite holds them (the record aside). */
const schema = (sql: SqlStorage) =>
  sql
    .exec<{ name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'
       AND name != 'storage_migrations' ORDER BY name`,
    )
    .toArray();
const recorded = (sql: SqlStorage) =>
  sql
    .exec<{ id: number }>("SELECT id FROM storage_migrations ORDER BY id")
    .toArray()
    .map((row) => row.id);

/** The ids of the shipped migrations, and the next free one (the test's own migrations come after them). */
const SHIPPED = MIGRATIONS.map((m) => m.id);
const NEXT = SHIPPED.length + 1;

const NICKNAME: StorageMigration = {
  id: NEXT,
  description: "a column for a test",
  statements: ["ALTER TABLE teachers ADD COLUMN nickname TEXT"],
};

describe("the school object's storage migrations", () => {
  it("never change once shipped: migration 1 is the list the object ran before migrations, word for word", async () => {
    // Editing a migration that ran changes nothing in the objects that ran it: add the next one instead.
    expect(MIGRATIONS.map((m) => m.id)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(await sha256Hex(MIGRATIONS[0]!.statements.join("\n"))).toBe("4a384e8bd3533c1d71f19b8e22c662fbe061998686f5433c25d9b27a13192c9d");
  });

  it("an object made before they were recorded takes migration 1 as a no-op at its next start, and keeps its data", async () => {
    const school = await createSchool();
    const stub = await schoolStub(school.id);
    const [teacherId, tokenHash, now] = [990_001, "old-token-hash", Date.now()];
    // The object as the code before this change left it: its tables (that code's CREATE TABLE IF NOT
    // EXISTS list, which migration 1 is), its school, a live session, a budget, usage and a note; no record.
    const before = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      for (const statement of MIGRATIONS[0]!.statements) sql.exec(statement);
      sql.exec("INSERT INTO meta (key, value) VALUES ('school_id', ?), ('catalogue_version', 3)", school.id);
      sql.exec("INSERT INTO teachers (id, name, email) VALUES (?, 'Old Teacher', 'old.teacher@example.org')", teacherId);
      sql.exec(
        "INSERT INTO sessions (token_hash, teacher_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)",
        tokenHash,
        teacherId,
        now,
        now,
        now + 24 * 3600_000,
      );
      sql.exec("INSERT INTO budgets (teacher_id, book_id, window, count, window_start) VALUES (?, 7, 'h', 42, ?)", teacherId, now);
      sql.exec(
        `INSERT INTO pending (seq, day, book_id, teacher_id, pages, seconds, last_at, new_teacher, new_book)
         VALUES (0, '2026-11-28', 7, ?, 5, 60, ?, 1, 1)`,
        teacherId,
        now,
      );
      sql.exec(
        "INSERT INTO annotations (teacher_id, book_id, kind, page, note, created_at, updated_at) VALUES (?, 7, 'note', 2, 'Kept', ?, ?)",
        teacherId,
        now,
        now,
      );
      // A start with nothing to run only reads: not even the record's table is made.
      expect(migrate(state.storage, [])).toEqual([]);
      expect(sql.exec("SELECT name FROM sqlite_master WHERE name = 'storage_migrations'").toArray()).toEqual([]);
      return schema(sql);
    });
    // Evicted, as the runtime may do at any time: the next start runs under the new code.
    await runInDurableObject(stub, (_instance, state) => state.abort("new code")).catch(() => {});
    const restarted = await schoolStub(school.id);
    // It still knows its school and its teacher's session (no move-in from D1, which has no such teacher).
    expect(await restarted.checkSession(school.id, tokenHash)).toEqual({
      ok: true,
      value: { id: teacherId, name: "Old Teacher", email: "old.teacher@example.org" },
    });
    expect(await restarted.dashboardState(school.id, teacherId)).toEqual({ unflushed: [], catalogueVersion: 3 });
    await runInDurableObject(restarted, (_instance, state) => {
      const sql = state.storage.sql;
      expect(recorded(sql)).toEqual(SHIPPED);
      // Migration 1 changed no table or index: every one is still there, only the later migrations add to them.
      expect(schema(sql).map((t) => t.name)).toEqual(expect.arrayContaining(before.map((t) => t.name)));
      const keptAsTheyWere = (t: { name: string }) => !["annotations"].includes(t.name) && before.some((b) => b.name === t.name);
      expect(schema(sql).filter(keptAsTheyWere)).toEqual(before.filter(keptAsTheyWere));
      expect(sql.exec("SELECT count FROM budgets WHERE teacher_id = ?", teacherId).toArray()).toEqual([{ count: 42 }]);
      expect(sql.exec("SELECT pages, seconds FROM pending WHERE teacher_id = ?", teacherId).toArray()).toEqual([{ pages: 5, seconds: 60 }]);
      expect(sql.exec("SELECT note FROM annotations WHERE teacher_id = ?", teacherId).toArray()).toEqual([{ note: "Kept" }]);
      // Started again, nothing runs twice.
      expect(migrate(state.storage)).toEqual([]);
    });
  });

  it("a migration appended to the list runs once, in order; one that fails leaves nothing and is not recorded", async () => {
    const school = await createSchool();
    const stub = await schoolStub(school.id);
    // The object's first call: it takes the school, and migration 1.
    await stub.checkSession(school.id, "none");
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      expect(recorded(sql)).toEqual(SHIPPED);
      expect(migrate(state.storage, [...MIGRATIONS, NICKNAME])).toEqual([NEXT]);
      expect(migrate(state.storage, [...MIGRATIONS, NICKNAME])).toEqual([]);
      expect(sql.exec("SELECT name FROM pragma_table_info('teachers') WHERE name = 'nickname'").toArray()).toHaveLength(1);
      expect(recorded(sql)).toEqual([...SHIPPED, NEXT]);

      const broken: StorageMigration = {
        id: NEXT + 1,
        description: "fails half-way",
        statements: ["CREATE TABLE half (a)", "INSERT INTO nowhere VALUES (1)"],
      };
      expect(() => migrate(state.storage, [...MIGRATIONS, NICKNAME, broken])).toThrow();
      expect(sql.exec("SELECT name FROM sqlite_master WHERE name = 'half'").toArray()).toEqual([]);
      expect(recorded(sql)).toEqual([...SHIPPED, NEXT]);

      // Append-only: a list out of order, or a migration slipped in below one that ran, is refused before it runs.
      const later: StorageMigration = { id: NEXT + 2, description: "a table for a test", statements: ["CREATE TABLE later (a)"] };
      expect(migrate(state.storage, [...MIGRATIONS, NICKNAME, later])).toEqual([NEXT + 2]);
      const slipped: StorageMigration = { id: NEXT + 1, description: "slipped in", statements: ["CREATE TABLE slipped (a)"] };
      expect(() => migrate(state.storage, [...MIGRATIONS, NICKNAME, slipped, later])).toThrow(new RegExp(`older than ${NEXT + 2}`));
      expect(() => migrate(state.storage, [NICKNAME, ...MIGRATIONS])).toThrow(/out of order/);
      expect(sql.exec("SELECT name FROM sqlite_master WHERE name = 'slipped'").toArray()).toEqual([]);
      expect(recorded(sql)).toEqual([...SHIPPED, NEXT, NEXT + 2]);
    });
  });
});
