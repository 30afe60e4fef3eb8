// Which errors are a part of the platform away (workers/kernel/platform-failure.ts, docs/decisions/0047),
// checked against the errors the real local bindings raise: a query D1 itself refuses (its own fault,
// an SQLITE_ code) stays a 500, and so does any other error of ours; D1's, R2's and a Durable Object's
// failures as workerd shapes them are 503s with their wait.
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../workers/db/client.ts";
import { platformFailure, platformPart } from "../../workers/kernel/platform-failure.ts";
import { d1Error, objectError, r2Error } from "./faulty-bindings.ts";

async function thrownBy(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("It did not throw");
}

describe("recognising a part of the platform that failed", () => {
  it("leaves D1's refusal of a bad query (its SQLITE_ code) and our own errors to be 500s", async () => {
    const raw = await thrownBy(() => env.DB.prepare("SELECT * FROM no_such_table").all());
    // The real binding's words: D1_ERROR, and the SQLite code that says it was the query.
    expect(String((raw as Error).message)).toMatch(/^D1_ERROR: .*SQLITE_ERROR/);
    expect(platformPart(raw)).toBeNull();
    const wrapped = await thrownBy(() => getDb(env.DB).run(sql`SELECT * FROM no_such_table`));
    expect((wrapped as Error).message).toMatch(/^Failed query/);
    expect(platformPart(wrapped)).toBeNull();
    expect(platformPart(new TypeError("Cannot read properties of undefined"))).toBeNull();
    expect(platformPart("D1_ERROR: not an error object")).toBeNull();
  });

  it("answers D1, R2 and a school's object failing with 503's wait and sentence, through drizzle's wrapping too", async () => {
    const wrapped = Object.assign(new Error("Failed query: SELECT 1"), { cause: d1Error("Network connection lost.") });
    expect(platformFailure(wrapped)).toMatchObject({ kind: "unavailable", retryAfterSeconds: 5, details: { part: "database" } });
    expect(platformFailure(d1Error("D1 DB is overloaded. Too many requests queued."))).toMatchObject({ retryAfterSeconds: 10 });
    expect(platformFailure(r2Error("get"))).toMatchObject({ retryAfterSeconds: 3, details: { part: "files" } });
    expect(platformFailure(objectError("throws"))).toMatchObject({ retryAfterSeconds: 3, details: { part: "school" } });
    expect(platformFailure(objectError("overloaded"))).toMatchObject({
      retryAfterSeconds: 10,
      error: "Your school's library is busy right now. Please try again in a few seconds.",
    });
    // D1 failing inside a school's object reaches the Worker as the object's error: D1's sentence is the truer one.
    const fromObject = Object.assign(d1Error("Network connection lost."), { remote: true, retryable: false });
    expect(platformFailure(fromObject)).toMatchObject({ details: { part: "database" } });
  });
});
