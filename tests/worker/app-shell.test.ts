// The installable app's files (docs/decisions/0049): the service worker's script and a school's
// web app manifest, with the headers browsers need, and the school pages that link the manifest.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { handleApp } from "./entry.ts";
import { watchedD1, watchedObjects } from "./faulty-bindings.ts";
import { createSchool, page, signedInTeacher } from "./helpers.ts";

const ManifestSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.literal("Lectern"),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal("standalone"),
  theme_color: z.string().regex(/^#[0-9a-f]{6}$/),
  background_color: z.string().regex(/^#[0-9a-f]{6}$/),
  icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.literal("image/png"), purpose: z.string() })),
});

/** One request through the whole Worker, counting its D1 round trips and school-object calls. */
async function counted(url: string, cookie?: string) {
  const cost = { d1: 0, objects: 0 };
  const DB = watchedD1(env.DB, async (_statements, run) => {
    cost.d1++;
    return run();
  });
  const SCHOOLS = watchedObjects(env.SCHOOLS, () => {
    cost.objects++;
    return null;
  });
  const ctx = createExecutionContext();
  const headers = cookie ? { Cookie: cookie } : undefined;
  const response = await handleApp(new Request(url, { headers }), { ...env, DB, SCHOOLS } as Env, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body, cost };
}

describe("the service worker's script", () => {
  it("is JavaScript that no cache keeps, served at /sw.js without a D1 read or a school-object call", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    for (const url of [`https://${school.slug}.lectern.test/sw.js`, "https://lectern.test/sw.js"]) {
      const { response, body, cost } = await counted(url, cookie);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
      expect(response.headers.get("Cache-Control")).toBe("no-cache");
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      // Its own CSP: the worker fetches only its own origin.
      expect(response.headers.get("Content-Security-Policy")).toContain("connect-src 'self'");
      // One classic script (no imports), the shell's caches and its fetch handler in it.
      expect(body).not.toMatch(/^\s*import\s/m);
      expect(body).toContain("lectern-shell-");
      expect(body).toMatch(/addEventListener\(.fetch.,/);
      expect(cost).toEqual({ d1: 0, objects: 0 });
    }
  });
});

describe("a school's web app manifest", () => {
  it("on the school's path: its name, its dashboard as start_url, standalone, the theme colour and three icons", async () => {
    const school = await createSchool({ name: "Manifest High" });
    const response = await page(`/schools/${school.slug}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/manifest+json; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const manifest = ManifestSchema.parse(await response.json());
    expect(manifest.name).toBe("Manifest High · Lectern");
    expect(manifest.start_url).toBe(`/schools/${school.slug}/dashboard`);
    expect(manifest.scope).toBe(`/schools/${school.slug}`);
    expect(manifest.icons.map((icon) => `${icon.src} ${icon.sizes} ${icon.purpose}`)).toEqual([
      "/icons/icon-192.png 192x192 any",
      "/icons/icon-512.png 512x512 any",
      "/icons/icon-maskable-512.png 512x512 maskable",
    ]);
  });

  it("on the school's subdomain: the dashboard at its root", async () => {
    const school = await createSchool();
    const response = await page(`https://${school.slug}.lectern.test/manifest.webmanifest`);
    expect(response.status).toBe(200);
    const manifest = ManifestSchema.parse(await response.json());
    expect([manifest.start_url, manifest.scope, manifest.id]).toEqual(["/dashboard", "/", "/dashboard"]);
  });

  it("is not found where no school is named: the main site, an unknown school, the admin's host", async () => {
    for (const url of [
      "/manifest.webmanifest",
      "/schools/no-such-school/manifest.webmanifest",
      "https://no-such-school.lectern.test/manifest.webmanifest",
    ]) {
      const response = await page(url);
      expect(response.status, url).toBe(404);
    }
    const admin = await page("https://admin.lectern.test/manifest.webmanifest");
    expect(admin.status).toBe(302);
  });

  it("is not found on a school's subdomain under another school's path (never the host's manifest under another name)", async () => {
    const [host, other] = [await createSchool(), await createSchool()];
    const response = await page(`https://${host.slug}.lectern.test/schools/${other.slug}/manifest.webmanifest`);
    expect(response.status).toBe(404);
    expect((await page(`https://${host.slug}.lectern.test/schools/${host.slug}/manifest.webmanifest`)).status).toBe(200);
  });
});

describe("the pages that link the manifest", () => {
  const manifestLink = (html: string) => /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1] ?? null;

  it("every school page does, signed in or not (the sign-in page, the short portal, the dashboard on both hosts)", async () => {
    const school = await createSchool();
    const { cookie } = await signedInTeacher(school);
    const expected = `/schools/${school.slug}/manifest.webmanifest`;
    expect(manifestLink(await (await page(`/schools/${school.slug}`)).text())).toBe(expected);
    expect(manifestLink(await (await page(`/${school.slug}`)).text())).toBe(expected);
    const dashboard = await page(`/schools/${school.slug}/dashboard`, { cookie });
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(manifestLink(html)).toBe(expected);
    expect(html).toContain('<meta name="theme-color" content="#4f39f6"/>');
    expect(manifestLink(await (await page(`https://${school.slug}.lectern.test/dashboard`, { cookie })).text())).toBe(
      "/manifest.webmanifest",
    );
  });

  it("the publisher's and the admin's pages do not, so the worker is never registered there", async () => {
    for (const url of ["/", "/admin/login", "/superadmin/login"]) {
      const response = await page(url);
      expect(response.status, url).toBe(200);
      expect(manifestLink(await response.text()), url).toBeNull();
    }
  });

  it("the school's offline page is a signed-in teacher's, in the school's look, and runs no script", async () => {
    const school = await createSchool({ name: "Offline Academy" });
    const { cookie } = await signedInTeacher(school);
    const signedOut = await page(`/schools/${school.slug}/offline`);
    expect(signedOut.status).toBe(302);
    const response = await page(`/schools/${school.slug}/offline`, { cookie });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("You are offline");
    expect(html).toContain("Offline Academy");
    expect(html).toContain(`href="/schools/${school.slug}/dashboard"`);
    // Only the constant theme script: nothing that needs the network to hydrate.
    expect(html).not.toContain('type="module"');
    expect((await page(`https://${school.slug}.lectern.test/offline`, { cookie })).status).toBe(200);
  });
});
