// What a teacher's busiest requests cost in D1 statements and school-object calls after issue 41
// (the review's R3; TOOLCHAIN.md: env.DB in a Proxy that counts): a page turn writes nothing to D1,
// a dashboard served from the kept shelf is one D1 batch and one object call, and signing out is
// one object call, whose seats are freed inside it. The figures are printed for the review.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../workers/auth/password.ts";
import { getDb } from "../../workers/db/client.ts";
import { bookAccess, teachers } from "../../workers/db/schema.ts";
import { unflushedProgress } from "../../workers/reading/progress.ts";
import { summariseShelf } from "../../workers/reading/shelf.ts";
import { handleApp } from "./entry.ts";
import { watchedD1, watchedObjects } from "./faulty-bindings.ts";
import { api, createBook, createSchool, db, ORIGIN, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

interface Cost {
  /** Round trips to D1: a statement run alone, or one batch. */
  trips: number;
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Calls to a school object's methods. */
  objectCalls: string[];
}

/** env with DB and SCHOOLS counted into `cost`. */
function counted(cost: Cost): Env {
  const written = (result: unknown) => {
    const meta = (result as { meta?: { rows_read?: number; rows_written?: number } } | null)?.meta;
    cost.rowsRead += meta?.rows_read ?? 0;
    cost.rowsWritten += meta?.rows_written ?? 0;
  };
  const DB = watchedD1(env.DB, async (statements, run) => {
    cost.trips++;
    cost.statements += statements;
    const result = await run();
    // A batch answers each statement's result.
    for (const one of Array.isArray(result) ? result : [result]) written(one);
    return result;
  });
  const SCHOOLS = watchedObjects(env.SCHOOLS, (method) => {
    cost.objectCalls.push(method);
    return null;
  });
  return { ...env, DB, SCHOOLS } as Env;
}

const fresh = (): Cost => ({ trips: 0, statements: 0, rowsRead: 0, rowsWritten: 0, objectCalls: [] });

/** One request through the whole Worker (pages and API), counted. */
async function measure(path: string, init: RequestInit & { cookie?: string } = {}): Promise<{ response: Response; cost: Cost }> {
  const cost = fresh();
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  if (init.method && init.method !== "GET") headers.set("Origin", ORIGIN);
  if (typeof init.body === "string") headers.set("Content-Type", "application/json");
  const ctx = createExecutionContext();
  const response = await handleApp(new Request(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" }), counted(cost), ctx);
  await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return { response, cost };
}

const figures: string[] = [];
const note = (what: string, cost: Cost) =>
  figures.push(
    `${what}: ${cost.trips} D1 round trip(s), ${cost.statements} statement(s), ${cost.rowsRead} row(s) read, ${cost.rowsWritten} written; object: ${cost.objectCalls.join(", ") || "none"}`,
  );

describe("what a teacher's requests cost", () => {
  it("a page turn writes nothing to D1; the second turn reads nothing from it", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school, "Pat Pages");
    const { book } = await preparedBook(`Cost ${crypto.randomUUID()}`, [school.id], ["One.", "Two.", "Three."]);
    for (const pageNumber of [1, 2, 3]) {
      const { response, cost } = await measure(`/api/books/${book.id}/pages/${pageNumber}`, { cookie });
      expect(response.status).toBe(200);
      note(`page turn ${pageNumber}`, cost);
      expect(cost.rowsWritten).toBe(0);
      if (pageNumber > 1) expect(cost.statements).toBe(0);
    }
  });

  it("offline copies (issue 45): the contact check, a download, and a page turn of a seat-limited book held by a loan", async () => {
    const school = await createSchool();
    const holder = await signedInTeacher(school, "Olive Offline");
    const reader = await signedInTeacher(school, "Rex Reader");
    const { book } = await preparedBook(`Offline cost ${crypto.randomUUID()}`, [], ["One.", "Two.", "Three."]);
    await db().insert(bookAccess).values({ schoolId: school.id, bookId: book.id, startsOn: "2026-01-01", seats: 5 });
    const none = await measure("/api/teacher/offline", { cookie: holder.cookie });
    note("contact check, no loans", none.cost);
    const kept = await measure(`/api/books/${book.id}/offline`, { method: "POST", cookie: holder.cookie });
    expect(kept.response.status).toBe(201);
    note("keep for offline", kept.cost);
    const { loan } = (await (await api(`/api/books/${book.id}/offline`, { method: "POST", cookie: holder.cookie })).json()) as {
      loan: { id: string };
    };
    const contact = await measure("/api/teacher/offline", { cookie: holder.cookie });
    expect(contact.response.status).toBe(200);
    note("contact check, one loan", contact.cost);
    expect(contact.cost.rowsWritten).toBe(0);
    expect(contact.cost.objectCalls).toEqual(["checkSession", "sessionLoans"]);
    expect(contact.cost.trips).toBe(none.cost.trips + 1);
    for (const n of [1, 2]) {
      const download = await measure(`/api/books/${book.id}/pages/${n}?offline=${loan.id}`, { cookie: holder.cookie });
      expect(download.response.status).toBe(200);
      note(`download page ${n} under the loan`, download.cost);
      expect(download.cost.rowsWritten).toBe(0);
    }
    for (const n of [1, 2]) {
      const turn = await measure(`/api/books/${book.id}/pages/${n}`, { cookie: reader.cookie });
      expect(turn.response.status).toBe(200);
      note(`seat-limited page turn ${n}, another teacher's loan live`, turn.cost);
      expect(turn.cost.rowsWritten).toBe(0);
      if (n > 1) expect(turn.cost.statements).toBe(0);
    }
  });

  it("the dashboard: kept shelf vs the teacher's own read (before issue 41)", async () => {
    const school = await createSchool();
    const { cookie, teacher } = await signedInTeacher(school, "Dee Dashboard");
    for (let i = 0; i < 30; i++) await createBook({ title: `Shelf ${i} ${crypto.randomUUID().slice(0, 6)}` }, [school.id]);
    const url = `/schools/${school.slug}/dashboard`;
    const first = await measure(url, { cookie });
    expect(first.response.status).toBe(200);
    note("dashboard, first in the isolate", first.cost);
    const second = await measure(url, { cookie });
    note("dashboard, shelf kept", second.cost);
    // The kept shelf: the school's first page of books is not read again; the teacher's stars,
    // reading and the shelf's stamp are one batch, and the object is called once as before.
    expect(second.cost.trips).toBe(first.cost.trips - 1);
    expect(second.cost.objectCalls).toEqual(["checkSession", "dashboardState"]);
    const filtered = await measure(`${url}?q=Shelf`, { cookie });
    note("dashboard with a search (not kept)", filtered.cost);

    // What the loader read before issue 41: the object's unflushed saves, then summariseShelf as the teacher.
    const before = fresh();
    const countedEnv = counted(before);
    const unflushed = await unflushedProgress(countedEnv, { schoolId: school.id, teacherId: teacher.id });
    await summariseShelf(getDb(countedEnv.DB), school.id, 24, teacher.id, undefined, unflushed);
    note("dashboard's reads before issue 41 (summariseShelf as the teacher)", before);
    // The loader's own part now (the request's less the school and the layout's two reads, which
    // the first dashboard has too) reads fewer rows than the loader read before.
    expect(second.cost.rowsRead).toBeLessThan(first.cost.rowsRead);
    expect(before.objectCalls).toEqual(["unflushedProgress"]);

    // The kept shelf's check reads one row (the catalogue's version), not the school's licences:
    // twice the books, the same rows read once the shelf is kept again.
    for (let i = 0; i < 30; i++) await createBook({ title: `More ${i} ${crypto.randomUUID().slice(0, 6)}` }, [school.id]);
    await measure(url, { cookie });
    const doubled = await measure(url, { cookie });
    note("dashboard, shelf kept, 60 books", doubled.cost);
    expect(doubled.cost.rowsRead).toBe(second.cost.rowsRead);
  });

  it("signing in and out: the sign-out frees seats within its one object call", async () => {
    const school = await createSchool();
    const { teacher } = await signedInTeacher(school, "Sol Signin");
    await db()
      .update(teachers)
      .set({ passwordHash: await hashPassword("a teacher passphrase 1") })
      .where(eq(teachers.id, teacher.id));
    const login = await measure("/api/teacher/login", {
      method: "POST",
      body: JSON.stringify({ email: teacher.email, password: "a teacher passphrase 1", slug: school.slug }),
    });
    expect(login.response.status).toBe(200);
    note("password sign-in", login.cost);
    const cookie = (login.response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    const out = await measure("/api/teacher/sign-out", { method: "POST", cookie });
    expect(out.response.status).toBe(200);
    note("sign-out", out.cost);
    expect(out.cost.objectCalls.filter((call) => call !== "checkSession")).toHaveLength(1);
    console.log(`Request cost (review R3):\n  ${figures.join("\n  ")}`);
  });
});
