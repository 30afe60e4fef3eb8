import { describe, expect, it } from "vitest";
import { loginTarget } from "../../app/lib/guards/teacher.server.ts";
import { redirectTarget } from "../../app/lib/redirect-target.ts";

const at = (query: string) => new Request(`https://lectern.test/schools/lincoln-high${query}`);
const atSubdomain = (query: string) => new Request(`https://lincoln-high.lectern.test/${query}`);

describe("loginTarget: where the login page sends a teacher", () => {
  it("goes back to the school page that sent them", () => {
    expect(loginTarget(at("?redirectTo=%2Fschools%2Flincoln-high%2Fbooks%2F7"), "/schools/lincoln-high")).toBe(
      "/schools/lincoln-high/books/7",
    );
    expect(loginTarget(atSubdomain("?redirectTo=%2Fdashboard%2Fbook%2F3"), "")).toBe("/dashboard/book/3");
  });

  it("falls back to the dashboard without a target", () => {
    expect(loginTarget(at(""), "/schools/lincoln-high")).toBe("/schools/lincoln-high/dashboard");
    expect(loginTarget(atSubdomain(""), "")).toBe("/dashboard");
  });

  it("never leaves the school or the site", () => {
    for (const target of ["/schools/washington-high/dashboard", "https://evil.example/", "//evil.example/x", "/schools/lincoln-highx"])
      expect(loginTarget(at(`?redirectTo=${encodeURIComponent(target)}`), "/schools/lincoln-high")).toBe("/schools/lincoln-high/dashboard");
    for (const target of ["//evil.example/x", "/\\evil.example/x", "https://evil.example/"])
      expect(loginTarget(atSubdomain(`?redirectTo=${encodeURIComponent(target)}`), "")).toBe("/dashboard");
  });
});

describe("redirectTarget: the same rule for the admin sign-in", () => {
  it("keeps admin pages, refuses the rest", () => {
    expect(redirectTarget("/admin/books", "/admin", "/admin")).toBe("/admin/books");
    expect(redirectTarget("/admin", "/admin", "/admin/all-schools")).toBe("/admin");
    for (const target of [
      "/administrator",
      "/superadmin/dashboard",
      "//evil.example/admin",
      "/admin\\evil",
      "https://evil.example/admin",
      null,
    ])
      expect(redirectTarget(target, "/admin", "/admin")).toBe("/admin");
  });
});
