// Sign-in with the school's Google or Microsoft accounts (issue #28, docs/decisions/0029), through
// the real OpenID providers tests/worker/global-setup.ts started on loopback: every refusal as a
// script would meet it.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, oidcRequests, teachers } from "../../workers/db/schema.ts";
import { api, client, createSchool, db, errorOf, okBody, page, type signedInAdmin, signedInTeacher } from "./helpers.ts";
import { atProvider, cookiesOf, journeyAdmin, refusalOf, refusals, schoolWith, signIn, start } from "./sso-journey.ts";

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
beforeAll(async () => {
  admin = await journeyAdmin();
});

const TENANT = "11111111-2222-3333-4444-555555555555";

/** A school's sign-in settings, through the typed client (`call` carries the cookie, the origin, the Worker's env). */
const signInOf = (call: Parameters<typeof client>[0] = { cookie: admin.cookie }) => client(call).api.schools[":id"]["sign-in"];
const readSettings = (schoolId: number) => okBody(signInOf().$get({ param: { id: String(schoolId) } }));

describe("PUT /api/schools/{id}/sign-in", () => {
  it("saves each provider with its domains, read back by GET; refuses bad input with the field, and anyone but an admin", async () => {
    const school = await createSchool();
    const param = { id: String(school.id) };
    const body = {
      google: { enabled: true, domains: ["@Lincoln.Example.org", "lincoln.example.org"] },
      microsoft: { enabled: false, domains: [], tenantId: TENANT.toUpperCase() },
    };
    expect((await signInOf().$put({ param, json: body })).status).toBe(200);
    const read = await readSettings(school.id);
    expect(read).toEqual({
      google: { enabled: true, domains: ["lincoln.example.org"], available: true },
      microsoft: { enabled: false, domains: [], tenantId: TENANT, available: true },
    });
    const bad = (over: Partial<typeof body>) => signInOf().$put({ param, json: { ...body, ...over } });
    expect(await errorOf(bad({ google: { enabled: true, domains: [] } }))).toBe(
      "Give at least one e-mail domain for Google: only those addresses may sign in",
    );
    expect(await errorOf(bad({ google: { enabled: true, domains: ["not a domain"] } }))).toBe(
      "“not a domain” is not an e-mail domain, like school.org",
    );
    expect(await errorOf(bad({ microsoft: { enabled: false, domains: [], tenantId: "nope" } }))).toBe(
      "The tenant id is a GUID, like 72f988bf-86f1-41af-91ab-2d7cd011db47",
    );
    // A deployment without Microsoft's secrets cannot turn it on.
    const withoutMicrosoft = signInOf({ cookie: admin.cookie, env: { OIDC_MICROSOFT_CLIENT_ID: "" } as Partial<Cloudflare.Env> });
    const noMicrosoft = await withoutMicrosoft.$put({ param, json: { ...body, microsoft: { enabled: true, domains: ["x.org"] } } });
    expect(noMicrosoft.status).toBe(400);
    expect((await signInOf().$put({ param: { id: "999999999" }, json: body })).status).toBe(404);
    const teacher = await signedInTeacher(school);
    expect((await signInOf(teacher).$put({ param, json: body })).status).toBe(401);
    expect((await signInOf(teacher).$get({ param })).status).toBe(401);
    expect((await signInOf({ cookie: admin.cookie, origin: "https://evil.example" }).$put({ param, json: body })).status).toBe(403);
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "school.sign-in"), eq(auditLog.entityType, "school"), eq(auditLog.entityId, String(school.id))));
    expect(audits).toHaveLength(1);
  });
});

describe("signing in through the provider", () => {
  it("registers a new teacher from the token on first sign-in, and signs them in (path form)", async () => {
    const school = await schoolWith("google");
    const { started, done } = await signIn("google", school.slug, "ada.lovelace@school.example.org");
    // The way to the provider: the code flow with PKCE (S256), a state and a nonce, to our one callback.
    const authorize = new URL(started.location);
    expect(authorize.origin).toBe(env.OIDC_GOOGLE_ISSUER);
    for (const param of ["state", "nonce", "code_challenge"]) expect(authorize.searchParams.get(param)?.length).toBeGreaterThan(20);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toBe("https://lectern.test/api/auth/oidc/google/callback");
    expect(started.cookie).toMatch(/^__Host-lectern_oidc=/);

    expect(done?.status).toBe(302);
    expect(done?.headers.get("Location")).toBe(`https://lectern.test/schools/${school.slug}/dashboard`);
    const session = cookiesOf(done!).find((c) => c.startsWith("__Host-lectern_teacher="))!;
    const me = await client({ cookie: session }).api.teacher["verify-token"].$get();
    expect(await me.json()).toMatchObject({ teacherName: "Ada Lovelace", email: "ada.lovelace@school.example.org" });
    const [row] = await db().select().from(teachers).where(eq(teachers.email, "ada.lovelace@school.example.org"));
    expect(row).toMatchObject({ schoolId: school.id, mobile: "" });
    // No password works for an account made by the provider.
    const login = await client().api.teacher.login.$post({ json: { email: row!.email, password: "!provider-sign-in", slug: school.slug } });
    expect(login.status).toBe(401);
  });

  it("works on the school's own subdomain: the one callback hands the session back to that host", async () => {
    const school = await schoolWith("microsoft", "school.example.org");
    const origin = `https://${school.slug}.lectern.test`;
    const { done, next } = await signIn("microsoft", school.slug, "grace.hopper@school.example.org", { origin });
    expect(next.startsWith(`${origin}/api/auth/oidc/complete?ticket=`)).toBe(true);
    expect(done?.headers.get("Location")).toBe(`${origin}/dashboard`);
    const session = cookiesOf(done!).find((c) => c.startsWith("__Host-lectern_teacher="))!;
    // Raw: the typed client calls our own origin, not a school's host.
    expect((await api(`${origin}/api/teacher/verify-token`, { cookie: session })).status).toBe(200);
  });

  it("is the same teacher through the e-mailed code and the provider: one account, no new row", async () => {
    const school = await schoolWith("google");
    const teacher = await signedInTeacher(school, "Existing Teacher");
    const email = `same.${crypto.randomUUID().slice(0, 6)}@school.example.org`;
    await db().update(teachers).set({ email }).where(eq(teachers.id, teacher.teacher.id));
    const { done } = await signIn("google", school.slug, email);
    expect(done?.status).toBe(302);
    const rows = await db()
      .select()
      .from(teachers)
      .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, email)));
    expect(rows.map((r) => [r.id, r.name])).toEqual([[teacher.teacher.id, "Existing Teacher"]]);
  });
});

// The provider's routes (start, callback, complete) read their query themselves, not declared to Hono,
// and most of their URLs come from an answer's Location: those calls stay raw.
describe("refusals", () => {
  it("a state we did not seal, changed, or for another provider is 400; a used code or ticket is refused", async () => {
    const school = await schoolWith("google");
    expect(await errorOf(api("/api/auth/oidc/google/callback?code=x&state=made-up"))).toBe(
      "This sign-in link has expired or was already used. Please sign in again.",
    );
    const first = await signIn("google", school.slug, "replay@school.example.org");
    expect(first.done?.status).toBe(302);
    const issuer = encodeURIComponent(env.OIDC_GOOGLE_ISSUER);
    // The same answer again: its state has signed someone in, so it is refused before the code is
    // spent (the provider would refuse its used code too), and no second ticket is made.
    const again = await api(first.callback);
    expect(refusalOf(again.headers.get("Location")!)).toBe("state");
    // Its code with a fresh sign-in's state: refused too.
    const second = await start("google", school.slug);
    const code = new URL(first.callback).searchParams.get("code")!;
    const state = new URL(second.location).searchParams.get("state")!;
    const replay = await api(`/api/auth/oidc/google/callback?code=${code}&state=${state}&iss=${issuer}`);
    expect(refusalOf(replay.headers.get("Location")!)).toBe("code");
    // A state changed by one character, or Google's state at Microsoft's callback: no sign-in under way.
    const flipped = `${state.slice(0, -2)}${state.at(-2) === "A" ? "B" : "A"}${state.at(-1)}`;
    expect((await api(`/api/auth/oidc/google/callback?code=${code}&state=${flipped}&iss=${issuer}`)).status).toBe(400);
    expect((await api(`/api/auth/oidc/microsoft/callback?code=${code}&state=${state}`)).status).toBe(400);
    // The ticket back to the teacher's host works once.
    expect((await api(first.next, { cookie: first.started.cookie })).status).toBe(400);
  });

  it("costs D1 no write until the provider has vouched for someone: starts and forged answers are free", async () => {
    const school = await schoolWith("google");
    const rows = async () => (await db().select({ state: oidcRequests.state }).from(oidcRequests)).length;
    const before = await rows();
    const audits = (await refusals(school.id)).length;
    for (let i = 0; i < 5; i++) expect((await start("google", school.slug)).response.status).toBe(302);
    const { location } = await start("google", school.slug);
    const state = new URL(location).searchParams.get("state")!;
    for (let i = 0; i < 5; i++) {
      const forged = await api(`/api/auth/oidc/google/callback?code=made-up-${i}&state=${state}`);
      expect(refusalOf(forged.headers.get("Location")!)).toBe("code");
      const cancelled = await api(`/api/auth/oidc/google/callback?error=access_denied&state=${state}`);
      expect(refusalOf(cancelled.headers.get("Location")!)).toBe("denied");
    }
    expect(await rows()).toBe(before);
    expect((await refusals(school.id)).length).toBe(audits);
  });

  it("a token for another audience, signed by another key, expired, or with another nonce is refused and audited", async () => {
    const school = await schoolWith("google");
    for (const [tamper, reason] of [
      ["audience", "audience"],
      ["key", "signature"],
      ["expired", "expired"],
      ["nonce", "nonce"],
      ["issuer", "issuer"],
    ] as const) {
      const { back, done } = await signIn("google", school.slug, `tampered@school.example.org`, { tamper });
      expect(done, tamper).toBeNull();
      expect(back.status).toBe(302);
      expect(refusalOf(back.headers.get("Location")!), tamper).toBe(reason);
    }
    expect((await refusals(school.id)).map((r) => (r.after as { reason: string }).reason)).toEqual([
      "audience",
      "signature",
      "expired",
      "nonce",
      "issuer",
    ]);
    const [row] = await db()
      .select()
      .from(teachers)
      .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, "tampered@school.example.org")));
    expect(row).toBeUndefined();
  });

  it("an unverified address, a domain the school does not allow, another tenant: refused, audited, nobody registered", async () => {
    const school = await schoolWith("google", "school.example.org");
    const unverified = await signIn("google", school.slug, "unverified.sam@school.example.org");
    expect(refusalOf(unverified.back.headers.get("Location")!)).toBe("unverified");
    const elsewhere = await signIn("google", school.slug, "sam@gmail.com");
    expect(refusalOf(elsewhere.back.headers.get("Location")!)).toBe("domain");
    expect(elsewhere.back.headers.get("Location")).toBe(`https://lectern.test/schools/${school.slug}?signInError=domain`);
    // Microsoft, configured for another organisation's tenant than the one the account is in.
    const other = await schoolWith("microsoft", "school.example.org", { tenantId: "99999999-2222-3333-4444-555555555555" });
    const tenant = await signIn("microsoft", other.slug, "sam@school.example.org");
    expect(refusalOf(tenant.back.headers.get("Location")!)).toBe("tenant");
    expect((await refusals(school.id)).map((r) => [(r.after as { reason: string }).reason, r.adminEmail])).toEqual([
      ["unverified", "unverified.sam@school.example.org"],
      ["domain", "sam@gmail.com"],
    ]);
    const rows = await db().select().from(teachers).where(eq(teachers.schoolId, school.id));
    expect(rows).toHaveLength(0);
  });

  it("a full school sends the new teacher to the limit page; a disabled teacher is refused", async () => {
    const full = await schoolWith("google", "school.example.org", { teacherLimit: 1 });
    await signedInTeacher(full, "Only Teacher");
    const refused = await signIn("google", full.slug, "newcomer@school.example.org");
    expect(refused.back.headers.get("Location")).toBe(`https://lectern.test/schools/${full.slug}/limit-reached`);

    const school = await schoolWith("google");
    const first = await signIn("google", school.slug, "leaver@school.example.org");
    expect(first.done?.status).toBe(302);
    await db().update(teachers).set({ disabled: true }).where(eq(teachers.email, "leaver@school.example.org"));
    const again = await signIn("google", school.slug, "leaver@school.example.org");
    expect(refusalOf(again.back.headers.get("Location")!)).toBe("disabled");
  });

  it("a school that does not use the provider, another browser finishing the sign-in, or an unknown school", async () => {
    const school = await createSchool();
    const off = await start("google", school.slug);
    expect(refusalOf(off.location)).toBe("off");
    expect((await api("/api/auth/oidc/google/start?school=no-such-school-here")).status).toBe(404);
    expect((await api("/api/auth/oidc/yahoo/start?school=x")).status).toBe(404);
    // A school's subdomain starts only its own sign-in.
    const enabled = await schoolWith("google");
    expect((await api(`https://${school.slug}.lectern.test/api/auth/oidc/google/start?school=${enabled.slug}`)).status).toBe(404);

    // Someone else's ticket (a link sent to a victim) without the state cookie of the browser that began.
    const started = await start("google", enabled.slug);
    const callback = await atProvider(started.location, "victim@school.example.org");
    const next = (await api(callback)).headers.get("Location")!;
    const stolen = await api(next);
    expect(refusalOf(stolen.headers.get("Location")!)).toBe("browser");
  });
});

describe("the school's login page", () => {
  it("shows a button for each provider the school uses, and why a provider sign-in was refused", async () => {
    const school = await schoolWith("microsoft");
    const html = await (await page(`/schools/${school.slug}`)).text();
    expect(html).toContain(`href="/api/auth/oidc/microsoft/start?school=${school.slug}"`);
    expect(html).toContain("Sign in with Microsoft");
    expect(html).not.toContain("Sign in with Google");
    const refused = await (await page(`/schools/${school.slug}?signInError=domain`)).text();
    expect(refused).toContain("This school only accepts accounts from its own e-mail domains. Sign in with your school account.");
    // A code the page does not know is no message; a school without providers has no buttons.
    expect(await (await page(`/schools/${school.slug}?signInError=%3Cscript%3E`)).text()).not.toContain("&lt;script");
    const plain = await createSchool();
    expect(await (await page(`https://${plain.slug}.lectern.test/`)).text()).not.toContain("Sign in with");
  });
});

describe("the school's admin page", () => {
  it("shows the sign-in settings and saves them through the same command as the API", async () => {
    const school = await createSchool();
    const html = await (await page(`/admin/school/${school.id}`, { cookie: admin.cookie })).text();
    expect(html).toContain("Sign-in with school accounts");
    const post = (fields: [string, string][]) =>
      page(`/admin/school/${school.id}`, {
        method: "POST",
        cookie: admin.cookie,
        body: new URLSearchParams([["intent", "sign-in"], ...fields]),
      });
    expect(
      (
        await post([
          ["google.enabled", "on"],
          ["google.domains", "lincoln.example.org, staff.lincoln.example.org"],
        ])
      ).status,
    ).toBe(200);
    const read = await readSettings(school.id);
    expect(read.google).toEqual({ enabled: true, domains: ["lincoln.example.org", "staff.lincoln.example.org"], available: true });
    expect((await post([["microsoft.enabled", "on"]])).status).toBe(400);
    // A teacher of the school, or another site's form, changes nothing.
    const teacher = await signedInTeacher(school);
    const forged = new URLSearchParams([
      ["intent", "sign-in"],
      ["google.enabled", "on"],
      ["google.domains", "evil.example"],
    ]);
    expect((await page(`/admin/school/${school.id}`, { method: "POST", cookie: teacher.cookie, body: forged })).status).not.toBe(200);
    const crossSite = await page(`/admin/school/${school.id}`, {
      method: "POST",
      cookie: admin.cookie,
      body: forged,
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const after = await readSettings(school.id);
    expect(after.google.domains).toEqual(["lincoln.example.org", "staff.lincoln.example.org"]);
  });
});
