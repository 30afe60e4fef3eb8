// Usage held in a school's object reaches D1 exactly once when D1 fails during a flush and comes
// back (issue 44 item 5, docs/decisions/0047): the object's own D1 is swapped for a faulty one
// (faulty-bindings.ts): down (nothing applied), then an answer lost after D1 applied the batch,
// then well again. Teachers read on meanwhile (their pages are counted in the object), and the
// rollups count every page once.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readingDaily, schoolUsageDaily } from "../../workers/db/usage-schema.ts";
import type { School } from "../../workers/school-object/school-object.ts";
import { allowLogged } from "./console-guard.ts";
import { type Faults, faultyBindings } from "./faulty-bindings.ts";
import { today } from "./fixtures-suite.ts";
import { api, createSchool, db, schoolStub, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

type Stub = Awaited<ReturnType<typeof schoolStub>>;

/** The object's D1 from now on: the faulty one (null: its own again). */
async function objectD1(stub: Stub, faults: Faults | null) {
  await runInDurableObject(stub, (instance) => {
    const held = instance as unknown as { env: { DB: D1Database }; realDB?: D1Database };
    held.realDB ??= held.env.DB;
    held.env = { ...held.env, DB: faults ? faults.env.DB : held.realDB };
  });
}

/** The object's flush, called in the object (as the alarm and a report's call run it). */
const flushInside = (stub: Stub, schoolId: number) => runInDurableObject(stub, (instance: School) => instance.flush(schoolId));

const pending = (stub: Stub) =>
  runInDurableObject(stub, (_instance, state) =>
    state.storage.sql.exec<{ seq: number; pages: number }>("SELECT seq, pages FROM pending").toArray(),
  );

describe("a flush while D1 fails", () => {
  it("counts each page once: D1 down, then an answer lost after D1 applied it, then back", async () => {
    allowLogged(/./);
    const school = await createSchool();
    const { book } = await preparedBook(`Flush Faults ${crypto.randomUUID().slice(0, 6)}`, [school.id], ["One.", "Two.", "Three."]);
    const { cookie, teacher } = await signedInTeacher(school);
    const read = async (n: number) => expect((await api(`/api/books/${book.id}/pages/${n}`, { cookie })).status).toBe(200);
    const schoolPages = async () =>
      (
        await db()
          .select()
          .from(schoolUsageDaily)
          .where(and(eq(schoolUsageDaily.schoolId, school.id), eq(schoolUsageDaily.day, today())))
      )[0]?.pages ?? 0;
    const teacherPages = async () =>
      (await db().select().from(readingDaily).where(eq(readingDaily.teacherId, teacher.id))).reduce((sum, row) => sum + row.pages, 0);

    for (const n of [1, 2, 3]) await read(n);
    const stub = await schoolStub(school.id);
    const faults = faultyBindings();
    await objectD1(stub, faults);

    // D1 down: the flush fails (drizzle's "Failed query", D1's error its cause); the batch stays, claimed under its number.
    faults.d1 = "down";
    await expect(flushInside(stub, school.id)).rejects.toThrow(/Failed query/);
    expect(await schoolPages()).toBe(0);
    expect((await pending(stub)).map((row) => row.pages)).toEqual([3]);

    // Reading goes on meanwhile: a new page is counted in the object, not yet in D1.
    await read(1);

    // D1 applies the batch, but its answer is lost: the object keeps it and will send it again.
    faults.d1 = "lost-answer";
    await expect(flushInside(stub, school.id)).rejects.toThrow(/Failed query/);
    expect(await schoolPages()).toBe(3);
    expect((await pending(stub)).length).toBeGreaterThan(0);

    // D1 back: the alarm sends the batch again, applied once (its number), and the new page once.
    faults.d1 = null;
    await runInDurableObject(stub, (_instance, state) => state.storage.setAlarm(Date.now()));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await objectD1(stub, null);
    expect(await pending(stub)).toEqual([]);
    expect(await schoolPages()).toBe(4);
    expect(await teacherPages()).toBe(4);
  });
});
