// Issue #25 item 5: deeply nested JSON answered 500 on every JSON endpoint (a RangeError while the
// control-character check walked it). Such input is refused with a 400 before anything walks it.
import { describe, expect, it } from "vitest";
import { MAX_INPUT_DEPTH, nestedDeeperThan, TOO_DEEP_MESSAGE } from "../../workers/validation/schemas.ts";
import { createSchool, ORIGIN, request, signedInAdmin } from "./helpers.ts";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const inKey = (levels: number) => `{"email":"a@b.c","password":${nested(levels)},"slug":"x"}`;

function post(path: string, body: string, cookie?: string) {
  return request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: ORIGIN, ...(cookie ? { Cookie: cookie } : {}) },
    body,
  });
}

describe("deeply nested JSON", () => {
  it("is refused with a 400 on sign-in, registration and an admin's import, however deep", async () => {
    const school = await createSchool();
    const { cookie } = await signedInAdmin();
    for (const levels of [MAX_INPUT_DEPTH + 1, 6_000, 10_000]) {
      for (const [path, body, who] of [
        ["/api/teacher/login", inKey(levels), undefined],
        ["/api/teacher/register", `{"slug":"${school.slug}","name":${nested(levels)}}`, undefined],
        ["/api/admin/login", nested(levels), undefined],
        ["/api/schools/validate-import", `{"rows":${nested(levels)}}`, cookie],
      ] as const) {
        const response = await post(path, body, who);
        expect(response.status, `${path} at ${levels} levels`).toBe(400);
        expect(await response.json()).toEqual({ error: TOO_DEEP_MESSAGE });
      }
    }
  });

  it("still lets ordinary input through", async () => {
    const school = await createSchool();
    const body = JSON.stringify({ email: "nobody@school.test", password: "not the password", slug: school.slug });
    const response = await post("/api/teacher/login", body);
    expect(response.status).toBe(401);
  });

  it("measures depth without recursion", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestedDeeperThan(deep, MAX_INPUT_DEPTH)).toBe(true);
    expect(nestedDeeperThan({ rows: [[["a", "b"]]] }, MAX_INPUT_DEPTH)).toBe(false);
    expect(nestedDeeperThan("text", 0)).toBe(false);
  });
});
