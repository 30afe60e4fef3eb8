// Teachers keep reading while D1 is away (issue 44 item 5, docs/decisions/0047): what a page turn
// needs of D1 (measured and printed), and that once this isolate knows the book, the school's object
// and R2 are enough: past the book's minute and the page set's hour, with D1 down or slower than the
// page view waits, the page and its text are served and the budget is spent; a book taken away is
// still refused; a book this isolate never read answers 503 with Retry-After.
import { afterEach, describe, expect, it, vi } from "vitest";
import { allowLogged } from "./console-guard.ts";
import { faultyBindings } from "./faulty-bindings.ts";
import { api, createSchool, errorBody, pagesSpent, signedInAdmin, signedInTeacher } from "./helpers.ts";
import { preparedBook } from "./page-fixtures.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A school, a teacher with a live session (in the school's object) and a ready three-page book. */
async function reading(title: string) {
  const school = await createSchool();
  const { cookie, teacher } = await signedInTeacher(school, "Rita Reader");
  const { book } = await preparedBook(`${title} ${crypto.randomUUID().slice(0, 6)}`, [school.id], ["One.", "Two.", "Three."]);
  return { school, cookie, teacher, book };
}

/** Moves this isolate's clock on: the remembered book (a minute) and page set (an hour) expire. */
function later(ms: number) {
  const now = Date.now() + ms;
  vi.spyOn(Date, "now").mockImplementation(() => now);
}

const figures: string[] = [];

describe("a page turn while D1 is away", () => {
  it("needs D1 once per isolate and book, then never within the minute (measured)", async () => {
    const { cookie, book } = await reading("Measured");
    const faults = faultyBindings();
    for (const n of [1, 2, 3]) {
      const before = faults.trips;
      const response = await api(`/api/books/${book.id}/pages/${n}`, { cookie, env: faults.env });
      expect(response.status).toBe(200);
      figures.push(`page turn ${n}: ${faults.trips - before} D1 round trip(s)`);
    }
    const text = await api(`/api/books/${book.id}/pages/2/text`, { cookie, env: faults.env });
    expect(text.status).toBe(200);
    // The first turn reads the book (one row) and its page set (set and pages); later ones nothing.
    expect(figures.slice(-2)).toEqual(["page turn 2: 0 D1 round trip(s)", "page turn 3: 0 D1 round trip(s)"]);
  });

  it("serves pages and text from what it read before, past the minute and the hour, with D1 down", async () => {
    allowLogged(/./);
    const { school, teacher, cookie, book } = await reading("Down");
    expect((await api(`/api/books/${book.id}/pages/1`, { cookie })).status).toBe(200);
    const faults = faultyBindings();
    faults.d1 = "down";
    later(2 * 3600_000);
    const before = faults.trips;
    const spentBefore = await pagesSpent(school, teacher.id, book.id);
    const page = await api(`/api/books/${book.id}/pages/2`, { cookie, env: faults.env });
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^image\//);
    figures.push(`page turn past the hour, D1 down: ${faults.trips - before} D1 round trip(s) tried, answered from memory`);
    const text = await api(`/api/books/${book.id}/pages/3/text`, { cookie, env: faults.env });
    expect(text.status).toBe(200);
    // The budget is still the object's: the page was spent.
    expect(await pagesSpent(school, teacher.id, book.id)).toBe(spentBefore + 1);
  });

  it("does not wait for a D1 slower than the page view's deadline", async () => {
    allowLogged(/./);
    const { cookie, book } = await reading("Slow");
    expect((await api(`/api/books/${book.id}/pages/1`, { cookie })).status).toBe(200);
    const faults = faultyBindings();
    faults.d1 = "slow";
    faults.d1DelayMs = 5_000;
    later(120_000);
    const started = performance.now();
    const page = await api(`/api/books/${book.id}/pages/2`, { cookie, env: faults.env });
    const waited = performance.now() - started;
    expect(page.status).toBe(200);
    figures.push(`page turn past the minute, D1 answering in 5 s: answered in ${Math.round(waited)} ms`);
    expect(waited).toBeLessThan(4_000);
    // The object confirmed the book's version: it is remembered for another minute, and the next turn does not wait.
    const trips = faults.trips;
    const next = performance.now();
    expect((await api(`/api/books/${book.id}/pages/3`, { cookie, env: faults.env })).status).toBe(200);
    figures.push(`the next page turn: ${faults.trips - trips} D1 round trip(s), answered in ${Math.round(performance.now() - next)} ms`);
    expect(faults.trips).toBe(trips);
  });

  it("still refuses a book taken away (the object's version), when D1 cannot say more: 503", async () => {
    allowLogged(/./);
    const { school, cookie, book } = await reading("Revoked");
    expect((await api(`/api/books/${book.id}/pages/1`, { cookie })).status).toBe(200);
    const { cookie: admin } = await signedInAdmin();
    expect((await api(`/api/books/access/${school.id}/${book.id}`, { method: "DELETE", cookie: admin })).status).toBeLessThan(300);
    const faults = faultyBindings();
    faults.d1 = "down";
    later(120_000);
    const page = await api(`/api/books/${book.id}/pages/2`, { cookie, env: faults.env });
    expect(page.status).toBe(503);
    expect(page.headers.get("Retry-After")).toBe("5");
  });

  it("answers 503 with Retry-After for a book this isolate never read", async () => {
    allowLogged(/./);
    const { cookie, book } = await reading("Unknown");
    const faults = faultyBindings();
    faults.d1 = "down";
    const page = await api(`/api/books/${book.id}/pages/1`, { cookie, env: faults.env });
    expect(page.status).toBe(503);
    expect(page.headers.get("Retry-After")).toBe("5");
    expect(await errorBody(page)).toEqual({
      part: "database",
      error: "The library's records cannot be reached right now. Please try again in a moment.",
    });
    console.log(`Page turn and D1 (measured):\n  ${figures.join("\n  ")}`);
  });
});
