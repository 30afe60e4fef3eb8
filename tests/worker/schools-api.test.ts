import { beforeAll, describe, expect, it } from "vitest";
import { createSchool, errorOf, request } from "./helpers.ts";

let slug: string;

beforeAll(async () => {
  slug = (await createSchool({ name: "Api Academy", address2: "Annex", address3: null, principal: "Secret Principal" })).slug;
});

describe("GET /api/schools/slug/{slug}", () => {
  it("answers the public fields of the school", async () => {
    const response = await request(`https://lectern.test/api/schools/slug/${slug}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toEqual({
      slug,
      schoolName: "Api Academy",
      address1: "1 Main Street",
      address2: "Annex",
      address3: null,
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
    });
  });

  it("never reveals contact details, principal or limits", async () => {
    const text = await (await request(`https://lectern.test/api/schools/slug/${slug}`)).text();
    for (const secret of ["office@test.example", "Secret Principal", "teacherLimit", '"id"']) expect(text).not.toContain(secret);
  });

  it("matches the slug case-insensitively", async () => {
    expect((await request(`https://lectern.test/api/schools/slug/${slug.toUpperCase()}`)).status).toBe(200);
  });

  it("answers 404 with a JSON error for an unknown school", async () => {
    const response = await request("https://lectern.test/api/schools/slug/nowhere-high");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "School not found" });
  });

  it("answers 400 for a slug longer than any school's", async () => {
    const response = await request(`https://lectern.test/api/schools/slug/${"a".repeat(64)}`);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatch(/slug/);
  });
});

describe("the public cannot list schools", () => {
  it.each(["/api/schools", "/api/schools/", "/api/schools/search?query=a"])("%s", async (path) => {
    const response = await request(`https://lectern.test${path}`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toContain("Api Academy");
  });
});

describe("GET /api/health", () => {
  it("is up", async () => {
    const response = await request("https://lectern.test/api/health");
    expect(await response.json()).toEqual({ ok: true });
  });
});
