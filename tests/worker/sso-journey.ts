// A teacher's sign-in through the real OpenID providers tests/worker/global-setup.ts started on
// loopback (docs/decisions/0029), step by step as a script (or a browser) would take it: shared by
// the sign-in's test files.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { auditLog } from "../../workers/db/schema.ts";
import { api, client, createSchool, db, signedInAdmin } from "./helpers.ts";

export type Provider = "google" | "microsoft";

let admin: ReturnType<typeof signedInAdmin> | null = null;
/** The admin who turns providers on (one per test file). */
export const journeyAdmin = () => {
  admin ??= signedInAdmin();
  return admin;
};

/** A school with the provider enabled for `domain` (and Microsoft's tenant when given). */
export async function schoolWith(
  provider: Provider,
  domain = "school.example.org",
  extra: { tenantId?: string; teacherLimit?: number } = {},
) {
  const school = await createSchool({ teacherLimit: extra.teacherLimit ?? 10 });
  const off = { enabled: false, domains: [] };
  const body = {
    google: provider === "google" ? { enabled: true, domains: [domain] } : off,
    microsoft: provider === "microsoft" ? { enabled: true, domains: [domain], tenantId: extra.tenantId ?? null } : off,
  };
  const admin = client(await journeyAdmin()).api.schools[":id"]["sign-in"];
  const saved = await admin.$put({ param: { id: String(school.id) }, json: body });
  expect(saved.status).toBe(200);
  return school;
}

export const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** Through the local provider's sign-in page as `email`; the callback URL it sends the browser to. */
export async function atProvider(authorizeUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith("https://lectern.test/")) return url;
    const interaction = new URL(url).pathname.startsWith("/interaction/");
    const response = await fetch(url, {
      method: interaction ? "POST" : "GET",
      redirect: "manual",
      headers: {
        Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(interaction ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
      body: interaction ? new URLSearchParams({ email }) : undefined,
    });
    for (const cookie of cookiesOf(response)) {
      const [key, ...value] = cookie.split("=");
      jar.set(key!, value.join("="));
    }
    await response.arrayBuffer();
    const location = response.headers.get("Location");
    if (!location) throw new Error(`The provider stopped at ${url} with ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error("Too many redirects at the provider");
}

// The provider's routes read their query themselves (not declared to Hono), on either host, and the
// later steps follow an answer's Location: these calls stay raw.

/** Starts a sign-in on `origin` (the main host or the school's subdomain): the provider's URL and the state cookie. */
export async function start(provider: Provider, slug: string, origin = "https://lectern.test") {
  const response = await api(`${origin}/api/auth/oidc/${provider}/start?school=${slug}`);
  return { response, location: response.headers.get("Location") ?? "", cookie: cookiesOf(response).join("; ") };
}

export const setTamper = (provider: Provider, mode: string | null) =>
  fetch(`${provider === "google" ? env.OIDC_GOOGLE_ISSUER : env.OIDC_MICROSOFT_ISSUER}/__test/tamper?mode=${mode ?? ""}`, {
    method: "POST",
  }).then((r) => r.text());

/** The whole journey: start, the provider, the callback, and back on the teacher's host. Each answer. */
export async function signIn(provider: Provider, slug: string, email: string, options: { origin?: string; tamper?: string } = {}) {
  const started = await start(provider, slug, options.origin);
  expect(started.response.status).toBe(302);
  const callback = await atProvider(started.location, email);
  if (options.tamper) await setTamper(provider, options.tamper);
  const back = await api(callback);
  const next = back.headers.get("Location") ?? "";
  if (!next.includes("/api/auth/oidc/complete")) return { started, callback, back, next, done: null };
  const done = await api(next, { cookie: started.cookie });
  return { started, callback, back, next, done };
}

export const refusalOf = (location: string) => new URL(location).searchParams.get("signInError");

/** The school's audited provider refusals. */
export const refusals = (schoolId: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "teacher.sign-in-refused"), eq(auditLog.entityType, "school"), eq(auditLog.entityId, String(schoolId))));
