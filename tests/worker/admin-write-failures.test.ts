// An admin's change happens whole or not at all when D1 fails part-way (issue 44 item 5,
// docs/decisions/0047): each write is sent again and again with D1 failing from its first, second,
// ... round trip on (faulty-bindings.ts), until it needs no more; every answer is the whole change
// (2xx) or none of it (503 with Retry-After): the row and its audit entry together, never one alone.
// Where a write also tells a school's object, the object failing after D1 answers 503 too, and
// sending it again completes it.
import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openTeacherSession } from "../../workers/auth/sessions.ts";
import { auditLog, schools, teachers } from "../../workers/db/schema.ts";
import { allowLogged } from "./console-guard.ts";
import { faultyBindings } from "./faulty-bindings.ts";
import { api, createBook, createSchool, db, hasAccess, objectSessions, schoolFields, signedInAdmin, signedInTeacher } from "./helpers.ts";

/** How many audit entries an entity has (by action, and entity id or a marker in what they recorded). */
async function audits(action: string, match: { entityId?: string; after?: string }) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        match.entityId !== undefined ? eq(auditLog.entityId, match.entityId) : sql`instr(${auditLog.after}, ${match.after}) > 0`,
      ),
    );
  return row?.n ?? 0;
}

interface Write {
  /** Makes what the write acts on; answers the request to send and how to read the state it changes. */
  prepare(admin: string): Promise<{ send(env: Env): Promise<Response>; state(): Promise<unknown> }>;
}

const WRITES: Record<string, Write> = {
  "assign a book": {
    async prepare(cookie) {
      const school = await createSchool();
      const book = await createBook({ title: `Whole ${crypto.randomUUID().slice(0, 6)}` });
      const body = { schoolIds: [school.id], bookIds: [book.id], startsOn: "2026-01-01", endsOn: null, seats: null };
      return {
        send: (env) => api("/api/books/access", { cookie, body, env }),
        state: async () => ({
          access: await hasAccess(school.id, book.id),
          audits: await audits("book_access.grant", { after: `[${book.id}]` }),
        }),
      };
    },
  },
  "add a school": {
    async prepare(cookie) {
      const fields = schoolFields("Whole School", "office@whole.example");
      return {
        send: (env) => api("/api/schools", { cookie, body: { ...fields, teacherLimit: 5 }, env }),
        state: async () => ({
          school: (await db().select().from(schools).where(eq(schools.name, fields.schoolName))).length,
          audits: await audits("school.create", { after: fields.schoolName }),
        }),
      };
    },
  },
  "edit a school": {
    async prepare(cookie) {
      const school = await createSchool();
      const name = `Renamed ${crypto.randomUUID().slice(0, 6)}`;
      return {
        send: (env) => api(`/api/schools/${school.id}`, { method: "PUT", cookie, body: { schoolName: name }, env }),
        state: async () => ({
          renamed: (await db().select().from(schools).where(eq(schools.id, school.id)))[0]?.name === name,
          audits: await audits("school.update", { entityId: String(school.id) }),
        }),
      };
    },
  },
  "disable a teacher": {
    async prepare(cookie) {
      const school = await createSchool();
      const { teacher } = await signedInTeacher(school);
      return {
        send: (env) => api(`/api/schools/${school.id}/teachers/${teacher.id}/disable`, { method: "POST", cookie, env }),
        state: async () => ({
          disabled: (await db().select().from(teachers).where(eq(teachers.id, teacher.id)))[0]?.disabled,
          audits: await audits("teacher.disable", { entityId: String(teacher.id) }),
        }),
      };
    },
  },
  "delete a school": {
    async prepare(cookie) {
      const school = await createSchool();
      return {
        send: (env) => api(`/api/schools/${school.id}`, { method: "DELETE", cookie, env }),
        state: async () => ({
          school: (await db().select().from(schools).where(eq(schools.id, school.id))).length,
          audits: await audits("school.delete", { entityId: String(school.id) }),
        }),
      };
    },
  },
};

const figures: string[] = [];

describe("an admin's write while D1 fails part-way", () => {
  for (const [name, write] of Object.entries(WRITES)) {
    it(`${name}: whole or nothing, whichever round trip fails`, async () => {
      allowLogged(/./);
      const { cookie } = await signedInAdmin();
      // The write as it goes when nothing fails: how many round trips, and the state it leaves.
      const clean = await write.prepare(cookie);
      const untouched = await clean.state();
      const counted = faultyBindings();
      expect((await clean.send(counted.env)).status).toBeLessThan(300);
      const whole = await clean.state();
      expect(whole).not.toEqual(untouched);
      const outcomes: string[] = [];
      for (let passFirst = 0; passFirst < counted.trips; passFirst++) {
        const attempt = await write.prepare(cookie);
        const before = await attempt.state();
        const faults = faultyBindings();
        faults.d1 = "down";
        faults.d1PassFirst = passFirst;
        const response = await attempt.send(faults.env);
        const after = await attempt.state();
        // Never a part: the row without its audit entry, or the other way round.
        expect([before, whole]).toContainEqual(after);
        if (response.status < 300) expect(after).toEqual(whole);
        else {
          expect(response.status).toBe(503);
          expect(response.headers.get("Retry-After")).toBe("5");
        }
        // A 503 after the change was made: D1 failed reading the answer back (the admin's retry finds it done).
        outcomes.push(
          `trip ${passFirst + 1}: ${response.status}${response.status === 503 && after !== before ? (JSON.stringify(after) === JSON.stringify(whole) ? " (made, answer lost)" : " (nothing made)") : ""}`,
        );
      }
      figures.push(`${name}: ${counted.trips} D1 round trip(s); failing each in turn: ${outcomes.join(", ")}`);
    });
  }

  it("a school's session limit: the object failing after D1 answers 503, and sending it again completes it", async () => {
    allowLogged(/./);
    const { cookie } = await signedInAdmin();
    const school = await createSchool({ sessionLimit: 3 });
    const { teacher } = await signedInTeacher({ id: school.id, sessionLimit: 3 });
    for (let i = 0; i < 2; i++) await openTeacherSession(env, { id: school.id, sessionLimit: 3 }, teacher, null);
    const live = async () => (await objectSessions(school.id)).filter((row) => row.ended === null).length;
    expect(await live()).toBe(3);
    const faults = faultyBindings();
    faults.object = "throws";
    const body = { sessionLimit: 1 };
    const first = await api(`/api/schools/${school.id}`, { method: "PUT", cookie, body, env: faults.env });
    expect(first.status).toBe(503);
    expect(first.headers.get("Retry-After")).toBe("3");
    // D1 has the new limit; the object has not ended the sessions beyond it yet.
    expect((await db().select().from(schools).where(eq(schools.id, school.id)))[0]?.sessionLimit).toBe(1);
    expect(await live()).toBe(3);
    faults.object = null;
    expect((await api(`/api/schools/${school.id}`, { method: "PUT", cookie, body, env: faults.env })).status).toBe(200);
    expect(await live()).toBe(1);
    console.log(`Admin writes and D1 (measured):\n  ${figures.join("\n  ")}`);
  });
});
