import { describe, expect, it } from "vitest";
import { RESERVED_SLUGS, SlugSchema } from "#shared/rules/slug.ts";
import { isServedHost, resolveHost, slugFromPath } from "../../workers/http/tenancy.ts";

describe("resolveHost", () => {
  it.each([
    ["lectern.example", { kind: "main" }],
    ["www.lectern.example", { kind: "main" }],
    ["admin.lectern.example", { kind: "admin" }],
    ["lincoln-high.lectern.example", { kind: "school", slug: "lincoln-high" }],
    ["LINCOLN-HIGH.Lectern.Example", { kind: "school", slug: "lincoln-high" }],
    ["lincoln-high.localhost", { kind: "school", slug: "lincoln-high" }],
    ["localhost", { kind: "main" }],
    ["admin.localhost", { kind: "admin" }],
    ["api.lectern.example", { kind: "invalid" }],
    ["schools.lectern.example", { kind: "invalid" }],
    ["a.b.lectern.example", { kind: "invalid" }],
    ["-bad-.lectern.example", { kind: "invalid" }],
    ["lectern-evil.example", { kind: "main" }],
    ["127.0.0.1", { kind: "main" }],
  ])("%s", (host, expected) => {
    expect(resolveHost(host, "lectern.example")).toEqual(expected);
  });
});

describe("isServedHost", () => {
  it.each([
    ["lectern.example", true],
    ["lincoln-high.lectern.example", true],
    ["Admin.Lectern.Example.", true],
    ["localhost", true],
    ["lincoln-high.localhost", true],
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["[::1]", true],
    ["evil.test", false],
    ["lectern-evil.example", false],
    ["lectern.example.evil.test", false],
    ["evillectern.example", false],
    ["10.0.0.5", false],
    ["lectern.workers.dev", false],
  ])("%s", (host, expected) => {
    expect(isServedHost(host, "lectern.example")).toBe(expected);
  });
});

describe("slugFromPath", () => {
  it.each([
    ["/lincoln-high", "lincoln-high"],
    ["/schools/lincoln-high", "lincoln-high"],
    ["/schools/lincoln-high/dashboard/book/3", "lincoln-high"],
    ["/Lincoln-High", "lincoln-high"],
    ["/", null],
    ["/admin", null],
    ["/api", null],
    ["/favicon.ico", null],
    ["/lincoln-high/dashboard", null],
    ["/schools", null],
    // React Router's data requests for client-side navigations
    ["/schools/lincoln-high.data", "lincoln-high"],
    ["/schools/lincoln-high/dashboard.data", "lincoln-high"],
    ["/lincoln-high.data", "lincoln-high"],
    ["/_root.data", null],
  ])("%s", (path, expected) => {
    expect(slugFromPath(path)).toBe(expected);
  });
});

describe("SlugSchema", () => {
  it("accepts URL- and DNS-safe slugs", () => {
    for (const slug of ["lincoln-high", "ps-118", "a1"]) expect(SlugSchema.safeParse(slug).success).toBe(true);
  });

  it("refuses every reserved word", () => {
    for (const word of ["admin", "api", "schools", "superadmin", "assets", "www", "dashboard", "login"]) {
      expect(RESERVED_SLUGS.has(word)).toBe(true);
      const result = SlugSchema.safeParse(word);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("This slug is reserved");
    }
  });

  it("refuses slugs that are not a DNS label", () => {
    for (const slug of ["x", "-lead", "trail-", "two--dashes", "under_score", "dot.ted", "spa ce", "é-cole", "a".repeat(64)]) {
      expect(SlugSchema.safeParse(slug).success, slug).toBe(false);
    }
  });
});
