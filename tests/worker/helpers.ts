import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { getDb } from "../../workers/db/client.ts";
import { schools } from "../../workers/db/schema.ts";
import { handle } from "./entry.ts";

export const db = () => getDb(env.DB);

/** One request through the whole Worker pipeline, as a browser at `url` would send it. */
export async function request(url: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await handle(new Request(url, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

let schoolCounter = 0;

export async function createSchool(overrides: Partial<typeof schools.$inferInsert> = {}) {
  schoolCounter++;
  const [school] = await db()
    .insert(schools)
    .values({
      slug: `test-school-${schoolCounter}-${crypto.randomUUID().slice(0, 8)}`,
      name: `Test School ${schoolCounter}`,
      address1: "1 Main Street",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      email: "office@test.example",
      principal: "Pat Principal",
      teacherLimit: 5,
      ...overrides,
    })
    .returning();
  return school!;
}
