// What each user-facing path answers when a part of the platform fails (issue 44 item 5,
// docs/decisions/0047): D1 down or timing out, an R2 read failing, a school's object throwing or
// overloaded, through the whole Worker (API and real pages) with fault-injecting bindings
// (faulty-bindings.ts). Every answer is the status the table in the decision record states, a 503
// says when to try again (Retry-After) and what happened, and no answer is a bare 500 or a stack.
// The measured table is printed for the record.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../workers/auth/password.ts";
import { schools, teachers } from "../../workers/db/schema.ts";
import { UNAVAILABLE_TEXT } from "../../workers/kernel/platform-failure.ts";
import { allowLogged } from "./console-guard.ts";
import { handleApp } from "./entry.ts";
import { type Faults, faultyBindings } from "./faulty-bindings.ts";
import { pngOf } from "./fixtures-png.ts";
import { api, createBook, createSchool, db, ORIGIN, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

const PASSWORD = "a teacher passphrase 1";
/** A small cover, as an admin uploads one. */
const cover = () => pngOf(new Uint8Array(40 * 60 * 4).fill(200), 40, 60);

let world: {
  school: Awaited<ReturnType<typeof createSchool>>;
  teacher: { email: string; cookie: string };
  admin: string;
  bookId: number;
};

beforeAll(async () => {
  const school = await createSchool({ name: "Failure Falls High" });
  const { teacher, cookie } = await signedInTeacher(school, "Fay Failure");
  await db()
    .update(teachers)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(teachers.id, teacher.id));
  const { book } = await preparedBook(`Failing Parts ${crypto.randomUUID().slice(0, 6)}`, [school.id], ["One.", "Two.", "Three."]);
  world = { school, teacher: { email: teacher.email, cookie }, admin: (await signedInAdmin()).cookie, bookId: book.id };
});

/** A page (or its .data) through the whole Worker with `faults.env`, as a browser sends it. */
async function pageWith(faults: Faults, path: string, cookie: string): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = new Headers({ Cookie: cookie });
  const response = await handleApp(new Request(`${ORIGIN}${path}`, { headers, redirect: "manual" }), faults.env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

type Path = "sign-in" | "dashboard" | "book page" | "page turn" | "annotations" | "admin write" | "reports" | "upload";
type Failure = "D1 down" | "D1 timeout" | "R2 read fails" | "object throws" | "object overloaded";

const PATHS: Record<Path, (faults: Faults) => Promise<Response>> = {
  "sign-in": (faults) =>
    api("/api/teacher/login", { body: { email: world.teacher.email, password: PASSWORD, slug: world.school.slug }, env: faults.env }),
  dashboard: (faults) => pageWith(faults, `/schools/${world.school.slug}/dashboard`, world.teacher.cookie),
  "book page": (faults) => pageWith(faults, `/schools/${world.school.slug}/dashboard/book/${world.bookId}`, world.teacher.cookie),
  "page turn": (faults) => api(`/api/books/${world.bookId}/pages/2`, { cookie: world.teacher.cookie, env: faults.env }),
  annotations: (faults) =>
    api(`/api/books/${world.bookId}/annotations`, { cookie: world.teacher.cookie, body: { kind: "bookmark", page: 1 }, env: faults.env }),
  // A book new to the school each time, so the write reaches the school's object too (its catalogue version).
  "admin write": async (faults) => {
    const book = await createBook({ title: `Assigned ${crypto.randomUUID().slice(0, 6)}` });
    return api("/api/books/access", {
      cookie: world.admin,
      body: { schoolIds: [world.school.id], bookIds: [book.id], startsOn: "2026-01-01", endsOn: null, seats: null },
      env: faults.env,
    });
  },
  reports: (faults) => api("/api/reports/usage?from=2026-11-01&to=2026-11-29", { cookie: world.admin, env: faults.env }),
  upload: async (faults) => {
    const headers = new Headers({ "Content-Type": "image/png", Cookie: world.admin, Origin: ORIGIN });
    const request = new Request(`${ORIGIN}/api/books/${world.bookId}/upload/thumbnail`, { method: "PUT", headers, body: cover() });
    const ctx = createExecutionContext();
    const response = await handleApp(request, faults.env, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  },
};

const FAILURES: Record<Failure, (faults: Faults) => void> = {
  "D1 down": (faults) => {
    faults.d1 = "down";
  },
  "D1 timeout": (faults) => {
    faults.d1 = "timeout";
  },
  "R2 read fails": (faults) => {
    faults.r2 = "read-fails";
  },
  "object throws": (faults) => {
    faults.object = "throws";
  },
  "object overloaded": (faults) => {
    faults.object = "overloaded";
  },
};

/** D1 down or timing out: the same answers (only a page turn of a book this isolate knows goes on). */
const D1_AWAY: Record<Path, number> = {
  "sign-in": 503,
  dashboard: 503,
  "book page": 503,
  "page turn": 200,
  annotations: 503,
  "admin write": 503,
  reports: 503,
  upload: 503,
};

/**
 * What each path answers (docs/decisions/0047's table): D1 away stops everything that reads it but
 * a page turn of a book this isolate knows; R2 failing a read stops only what reads a file; the
 * school's object failing stops what needs a teacher's session, while an admin's write (whole in D1;
 * the object's catalogue version is logged as not told) and the reports (D1's figures, the object's
 * last minutes not flushed) still answer.
 */
const EXPECTED: Record<Failure, Record<Path, number>> = {
  "D1 down": D1_AWAY,
  "D1 timeout": D1_AWAY,
  "R2 read fails": {
    "sign-in": 200,
    dashboard: 200,
    "book page": 200,
    "page turn": 503,
    annotations: 201,
    "admin write": 200,
    reports: 200,
    upload: 200,
  },
  "object throws": {
    "sign-in": 503,
    dashboard: 503,
    "book page": 503,
    "page turn": 503,
    annotations: 503,
    "admin write": 200,
    reports: 200,
    upload: 200,
  },
  "object overloaded": {
    "sign-in": 503,
    dashboard: 503,
    "book page": 503,
    "page turn": 503,
    annotations: 503,
    "admin write": 200,
    reports: 200,
    upload: 200,
  },
};

/** The sentence a person reads in an answer: a JSON body's `error`, a page's alert. */
function sentenceOf(text: string): string {
  if (text.startsWith("{")) return (JSON.parse(text) as { error?: string }).error ?? "";
  return /role="alert"[^>]*>([^<]*)</.exec(text)?.[1]?.replaceAll("&#x27;", "'") ?? "";
}

const measured: string[] = [];
afterAll(() => console.log(`Failure table (measured):\n${measured.join("\n")}`));

describe("what each path answers when a part fails", () => {
  for (const [failure, inject] of Object.entries(FAILURES) as [Failure, (faults: Faults) => void][]) {
    for (const [path, call] of Object.entries(PATHS) as [Path, (faults: Faults) => Promise<Response>][]) {
      it(`${failure}: ${path}`, async () => {
        allowLogged(/./);
        const faults = faultyBindings();
        // The book known to this isolate: a page turned before the part fails.
        expect((await api(`/api/books/${world.bookId}/pages/1`, { cookie: world.teacher.cookie })).status).toBe(200);
        inject(faults);
        const response = await call(faults);
        const text = response.headers.get("Content-Type")?.startsWith("image/") ? "(the page image)" : await response.text();
        const retryAfter = response.headers.get("Retry-After");
        const said = response.status === 503 ? sentenceOf(text) : "";
        measured.push(`| ${failure} | ${path} | ${response.status} | ${retryAfter ?? ""} | ${said} |`);
        expect(response.status).toBe(EXPECTED[failure][path]);
        expect(text).not.toMatch(/\n\s+at |D1_ERROR|SQLITE_|Failed query|R2Error|Durable Object/);
        if (response.status === 503) {
          expect(Number(retryAfter)).toBeGreaterThan(0);
          expect(Object.values(UNAVAILABLE_TEXT)).toContain(said);
          // A page says what happened, offers to try again, and leads back to the school.
          if (!text.startsWith("{")) expect(text).toMatch(/Temporarily unavailable[\s\S]*Try Again[\s\S]*Back to Dashboard/);
        }
      });
    }
  }
});

describe("a page whose loader meets D1 failing (after its context was resolved)", () => {
  for (const suffix of ["", ".data"]) {
    it(`the dashboard${suffix}: 503 whichever round trip fails, never a 500`, async () => {
      allowLogged(/./);
      const path = `/schools/${world.school.slug}/dashboard${suffix}`;
      const counted = faultyBindings();
      expect((await pageWith(counted, path, world.teacher.cookie)).status).toBe(200);
      const statuses: number[] = [];
      for (let passFirst = 0; passFirst < counted.trips; passFirst++) {
        const faults = faultyBindings();
        faults.d1 = "down";
        faults.d1PassFirst = passFirst;
        const response = await pageWith(faults, path, world.teacher.cookie);
        // The first render read the school's shelf, which is kept: a later one may make fewer round trips.
        if (faults.trips <= passFirst) continue;
        statuses.push(response.status);
        expect(response.status).toBe(503);
        expect(response.headers.get("Retry-After")).toBe("5");
        const text = await response.text();
        // The page, or the data a client navigation reads: the sentence either way.
        expect(text).toContain(suffix ? UNAVAILABLE_TEXT.database : "Temporarily unavailable");
      }
      measured.push(
        `| D1 failing at each of its ${counted.trips} round trips | dashboard${suffix} | ${[...new Set(statuses)].join(", ")} | 5 | |`,
      );
    });
  }
});

describe("a page's action (the console's Add School) meeting D1 failing", () => {
  it("answers 503 whichever round trip fails, or the whole change", async () => {
    allowLogged(/./);
    const post = async (faults: Faults, name: string) => {
      const fields = { schoolName: name, address1: "1 Elm Street", city: "Springfield", state: "IL", zipCode: "62701" };
      const form = new URLSearchParams({
        ...fields,
        email: "office@form.example",
        slug: name.toLowerCase().replaceAll(" ", "-"),
        teacherLimit: "5",
      });
      const headers = new Headers({ Cookie: world.admin, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" });
      const ctx = createExecutionContext();
      const response = await handleApp(
        new Request(`${ORIGIN}/admin/add-school`, { method: "POST", headers, body: form, redirect: "manual" }),
        faults.env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return response;
    };
    const counted = faultyBindings();
    expect((await post(counted, `Form School ${crypto.randomUUID().slice(0, 6)}`)).status).toBe(302);
    const statuses: number[] = [];
    for (let passFirst = 0; passFirst < counted.trips; passFirst++) {
      const faults = faultyBindings();
      faults.d1 = "down";
      faults.d1PassFirst = passFirst;
      const name = `Form School ${crypto.randomUUID().slice(0, 6)}`;
      const response = await post(faults, name);
      statuses.push(response.status);
      const made = (await db().select().from(schools).where(eq(schools.name, name))).length;
      // A 503 whether or not the batch went (D1 failing on the read after it); a redirect only when made.
      expect(response.status === 503 || (response.status === 302 && made === 1)).toBe(true);
      if (response.status === 503) expect(response.headers.get("Retry-After")).toBe("5");
    }
    measured.push(
      `| D1 failing at each of its ${counted.trips} round trips | Add School (page action) | ${[...new Set(statuses)].join(", ")} | 5 | |`,
    );
  });
});
