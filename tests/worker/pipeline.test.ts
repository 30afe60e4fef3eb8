import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSchool, jsonOf, request } from "./helpers.ts";

let slug: string;

beforeAll(async () => {
  slug = (await createSchool({ name: "Pipeline High" })).slug;
});

/** What the test entry (entry.ts) answers for a page: the tenant the pipeline resolved, and the nonce. */
const Tenant = z.object({
  host: z.object({ kind: z.string() }).loose(),
  slug: z.string().nullable(),
  schoolName: z.string().nullable(),
  basePath: z.string(),
  nonce: z.string(),
});

async function tenantOf(url: string) {
  const response = await request(url);
  expect(response.status).toBe(200);
  return jsonOf(response, Tenant);
}

describe("tenant resolution", () => {
  it("finds the school from the short path", async () => {
    const tenant = await tenantOf(`https://lectern.test/${slug}`);
    expect(tenant).toMatchObject({ slug, schoolName: "Pipeline High", basePath: `/schools/${slug}` });
  });

  it("finds the school from /schools/{slug}/...", async () => {
    const tenant = await tenantOf(`https://lectern.test/schools/${slug}/dashboard`);
    expect(tenant).toMatchObject({ slug, schoolName: "Pipeline High", basePath: `/schools/${slug}` });
  });

  it("finds the school from its subdomain, with links at the root", async () => {
    const tenant = await tenantOf(`https://${slug}.lectern.test/dashboard`);
    expect(tenant).toMatchObject({ host: { kind: "school" }, slug, schoolName: "Pipeline High", basePath: "" });
  });

  it("finds the school on {slug}.localhost", async () => {
    const tenant = await tenantOf(`http://${slug}.localhost:8787/`);
    expect(tenant).toMatchObject({ slug, schoolName: "Pipeline High", basePath: "" });
  });

  it("ignores a path slug on a school's subdomain", async () => {
    const tenant = await tenantOf(`https://${slug}.lectern.test/schools/other-school`);
    expect(tenant.slug).toBe(slug);
  });

  it("names an unknown school without finding one", async () => {
    const tenant = await tenantOf("https://lectern.test/schools/no-such-school");
    expect(tenant).toMatchObject({ slug: "no-such-school", schoolName: null });
    expect((await tenantOf("https://no-such-school.lectern.test/")).schoolName).toBeNull();
  });

  it("never treats a reserved word as a school", async () => {
    expect((await tenantOf("https://lectern.test/dashboard")).slug).toBeNull();
    expect((await tenantOf("https://api.lectern.test/")).host.kind).toBe("invalid");
  });

  it("sends the admin subdomain's pages to the admin area", async () => {
    const response = await request("https://admin.lectern.test/books?page=2");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("https://admin.lectern.test/admin/books?page=2");
    expect((await request("https://admin.lectern.test/")).headers.get("Location")).toBe("https://admin.lectern.test/admin");
    expect((await request("https://admin.lectern.test/admin/login")).status).toBe(200);
    // Client-side navigations fetch /{page}.data: those of admin pages are admin pages too.
    expect((await request("https://admin.lectern.test/admin.data")).status).toBe(200);
    expect((await request("https://admin.lectern.test/admin/books.data")).status).toBe(200);
  });
});

describe("security headers", () => {
  it("puts a nonce CSP and the other headers on pages", async () => {
    const response = await request(`https://lectern.test/${slug}`);
    const { nonce } = await jsonOf(response, Tenant);
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(response.headers.get("Strict-Transport-Security")).toContain("max-age=");
  });

  it("uses a new nonce on every request", async () => {
    const a = await tenantOf("https://lectern.test/");
    const b = await tenantOf("https://lectern.test/");
    expect(a.nonce).not.toBe(b.nonce);
  });

  it("puts them on API answers and errors too", async () => {
    for (const path of ["/api/health", "/api/nope"]) {
      const response = await request(`https://lectern.test${path}`);
      expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("sends no HSTS over plain http (local development)", async () => {
    const response = await request("http://localhost:8787/");
    expect(response.headers.get("Strict-Transport-Security")).toBeNull();
  });
});

describe("hosts", () => {
  const UNKNOWN_HOST = { error: "This site does not answer at this address. Use lectern.test or a school's address under it." };

  it("refuses a Host that is not APP_DOMAIN, localhost or loopback, before any route reads it", async () => {
    for (const url of [
      "https://evil.test/",
      "https://evil.test/api/health",
      `https://evil.test/schools/${slug}`,
      "https://lectern.test.evil.test/",
    ]) {
      const response = await request(url);
      expect(response.status, url).toBe(400);
      expect(response.headers.get("X-Content-Type-Options"), url).toBe("nosniff");
    }
    expect(await (await request("https://evil.test/api/health")).json()).toEqual(UNKNOWN_HOST);
    // A script asking for a teacher's code from Host: evil.test would have the school's
    // "you already have an account" e-mail link to evil.test.
    const otp = await request("https://evil.test/api/teacher/send-otp", {
      method: "POST",
      headers: { Origin: "https://evil.test", "Content-Type": "application/json" },
      body: JSON.stringify({ email: "someone@school.example.org", slug, purpose: "register" }),
    });
    expect(otp.status).toBe(400);
    expect(await otp.json()).toEqual(UNKNOWN_HOST);
  });

  it("answers on APP_DOMAIN and its subdomains, localhost and its subdomains, and loopback addresses", async () => {
    for (const origin of [
      "https://lectern.test",
      "https://LECTERN.test.",
      `https://${slug}.lectern.test`,
      "https://admin.lectern.test",
      "http://localhost:8787",
      `http://${slug}.localhost:8787`,
      "http://127.0.0.1:8787",
      "http://[::1]:8787",
    ]) {
      expect((await request(`${origin}/api/health`)).status, origin).toBe(200);
    }
  });
});
