import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { addDays, isDay, licenceState, renewed, schoolYearOf } from "#shared/rules/licence.ts";

const MIGRATIONS = join(import.meta.dirname, "../../migrations");

/** Applies the project's migrations whose names sort before `until` (or all) to a fresh SQLite database. */
function migrate(db: DatabaseSync, from = "", until = "\uffff") {
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql") && f >= from && f < until)
    .sort()) {
    for (const statement of readFileSync(join(MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) db.exec(statement);
    }
  }
}

describe("migration 0012: every assignment becomes a licence", () => {
  it("keeps each (school, book) as an open-ended, unlimited licence from the day it was assigned", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("PRAGMA foreign_keys = ON");
    migrate(db, "", "0012");
    db.exec("INSERT INTO schools (id, slug, name) VALUES (1, 'lincoln-high', 'Lincoln High'), (2, 'oak', 'Oak School')");
    db.exec("INSERT INTO books (id, title, author1, description) VALUES (10, 'Atlas', 'A', ''), (11, 'Botany', 'B', '')");
    const assigned = Date.UTC(2025, 8, 3, 23, 30); // 3 September 2025, late evening UTC
    const insert = db.prepare("INSERT INTO book_access (school_id, book_id, created_at) VALUES (?, ?, ?)");
    insert.run(1, 10, assigned);
    insert.run(1, 11, assigned + 86_400_000);
    insert.run(2, 10, assigned + 2 * 86_400_000);
    migrate(db, "0012");
    const rows = db.prepare("SELECT school_id, book_id, starts_on, ends_on, seats, note, created_at FROM book_access ORDER BY id").all();
    expect(rows).toEqual([
      { school_id: 1, book_id: 10, starts_on: "2025-09-03", ends_on: null, seats: null, note: "", created_at: assigned },
      { school_id: 1, book_id: 11, starts_on: "2025-09-04", ends_on: null, seats: null, note: "", created_at: assigned + 86_400_000 },
      { school_id: 2, book_id: 10, starts_on: "2025-09-05", ends_on: null, seats: null, note: "", created_at: assigned + 2 * 86_400_000 },
    ]);
    // Still one licence per pair, and still gone with its school.
    expect(() => db.exec("INSERT INTO book_access (school_id, book_id) VALUES (1, 10)")).toThrow(/UNIQUE/);
    db.exec("DELETE FROM schools WHERE id = 1");
    expect(db.prepare("SELECT count(*) AS n FROM book_access").get()).toEqual({ n: 1 });
  });
});

describe("licence days", () => {
  it("reads real days only", () => {
    for (const day of ["2026-08-01", "2028-02-29", "2027-12-31"]) expect(isDay(day), day).toBe(true);
    for (const day of ["2027-02-29", "2026-13-01", "2026-8-1", "01/08/2026", "2026-08-01T00:00", ""]) expect(isDay(day), day).toBe(false);
  });

  it("is scheduled before its first day, active through its last, expired after", () => {
    const licence = { startsOn: "2026-08-01", endsOn: "2027-07-31" };
    expect(licenceState(licence, "2026-07-31")).toBe("scheduled");
    expect(licenceState(licence, "2026-08-01")).toBe("active");
    expect(licenceState(licence, "2027-07-31")).toBe("active");
    expect(licenceState(licence, "2027-08-01")).toBe("expired");
    expect(licenceState({ startsOn: "2020-01-01", endsOn: null }, "2099-01-01")).toBe("active");
  });

  it("runs a school year from 1 August to 31 July", () => {
    expect(schoolYearOf("2026-11-25")).toEqual({ startsOn: "2026-08-01", endsOn: "2027-07-31" });
    expect(schoolYearOf("2027-07-31")).toEqual({ startsOn: "2026-08-01", endsOn: "2027-07-31" });
    expect(schoolYearOf("2027-08-01")).toEqual({ startsOn: "2027-08-01", endsOn: "2028-07-31" });
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });

  it("renews for the school year after the one a licence ends in; an expired one for today's", () => {
    const today = "2026-11-25";
    expect(renewed({ startsOn: "2026-08-01", endsOn: "2027-07-31" }, today)).toEqual({ startsOn: "2026-08-01", endsOn: "2028-07-31" });
    expect(renewed({ startsOn: "2026-09-01", endsOn: "2027-03-15" }, today)).toEqual({ startsOn: "2026-09-01", endsOn: "2028-07-31" });
    expect(renewed({ startsOn: "2025-08-01", endsOn: "2026-07-31" }, today)).toEqual({ startsOn: "2026-08-01", endsOn: "2027-07-31" });
    expect(renewed({ startsOn: "2027-08-01", endsOn: "2028-07-31" }, today)).toEqual({ startsOn: "2027-08-01", endsOn: "2029-07-31" });
    expect(renewed({ startsOn: "2020-01-01", endsOn: null }, today)).toBeNull();
  });
});
