// A provider sign-in (docs/decisions/0029) against the requests that would make someone a teacher
// they are not, or hand a teacher's session to someone else (issue 41, items 3 to 5): an address
// whose domain only looks like the school's, a sign-in started on a host we do not serve, a ticket
// taken to another host, and a state that already signed someone in.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oidcRequests, teachers } from "../../workers/db/schema.ts";
import { finishSignIn } from "../../workers/sso/flow.ts";
import { providerApps } from "../../workers/sso/providers.ts";
import { SIGN_IN_TTL_MS } from "../../workers/sso/sealed-state.ts";
import { emailDomain } from "../../workers/validation/schemas.ts";
import { api, db, errorOf } from "./helpers.ts";
import { atProvider, cookiesOf, refusals, schoolWith, signIn, start } from "./sso-journey.ts";

describe("the address's domain", () => {
  it("is the part after the only '@': an address with two, or a quoted local part, is refused and audited", async () => {
    const school = await schoolWith("google", "school.example.org");
    // Verified addresses at evil.test whose first "@" is followed by the school's domain.
    const lookalikes = ["x@school.example.org@evil.test", '"x@school.example.org@"@evil.test'];
    for (const email of lookalikes) {
      const { back, done } = await signIn("google", school.slug, email);
      expect(done, email).toBeNull();
      expect(back.headers.get("Location"), email).toBe(`https://lectern.test/schools/${school.slug}?signInError=domain`);
    }
    expect(await db().select().from(teachers).where(eq(teachers.schoolId, school.id))).toHaveLength(0);
    expect((await refusals(school.id)).map((r) => [(r.after as { reason: string }).reason, r.adminEmail])).toEqual(
      lookalikes.map((email) => ["domain", email]),
    );
    // The school's own address still signs in.
    expect((await signIn("google", school.slug, "ada@school.example.org")).done?.status).toBe(302);
  });

  it("is read by one rule: the domain after the last '@' of an address EmailSchema takes, else none", () => {
    expect(emailDomain("Ada@School.Example.org")).toBe("school.example.org");
    for (const address of ["x@school.example.org@evil.test", '"x@school.example.org@"@evil.test', '"x"@school.example.org', "x", "x@"])
      expect(emailDomain(address), address).toBeNull();
  });
});

// Every call here names a host (another site's, localhost, a school's) or follows an answer's Location,
// to routes that read their query themselves: none of it is what the typed client sends, so they stay raw.
describe("the host a sign-in begins on and comes back to", () => {
  it("refuses to start on a host that is not APP_DOMAIN or the school's subdomain of it", async () => {
    const school = await schoolWith("google");
    // A script's start with Host: evil.test would seal http(s)://evil.test as the way back, and
    // the victim who signs in at the provider would send their ticket there.
    for (const origin of ["https://evil.test", "http://evil.test", "https://127.0.0.1", `https://${school.slug}.localhost`]) {
      const started = await start("google", school.slug, origin);
      expect(started.response.status, origin).toBe(400);
      expect(started.cookie, origin).toBe("");
    }
    // A host we serve but that is not the sign-in's own address says which address to use.
    expect(await errorOf(api(`https://127.0.0.1/api/auth/oidc/google/start?school=${school.slug}`))).toBe(
      `Sign in from https://lectern.test/schools/${school.slug}: this address cannot finish a sign-in.`,
    );
    expect(await errorOf(api(`https://${school.slug}.localhost/api/auth/oidc/google/start?school=${school.slug}`))).toBe(
      `Sign in from https://${school.slug}.lectern.test: this address cannot finish a sign-in.`,
    );
    // www. is the main site's other name: it comes back to itself.
    const www = await signIn("google", school.slug, "w@school.example.org", { origin: "https://www.lectern.test" });
    expect(www.next.startsWith("https://www.lectern.test/api/auth/oidc/complete?ticket=")).toBe(true);
    expect(www.done?.headers.get("Location")).toBe(`https://www.lectern.test/schools/${school.slug}/dashboard`);
  });

  it("starts on localhost and {slug}.localhost when APP_DOMAIN is localhost (npm start, the e2e tests)", async () => {
    const school = await schoolWith("google");
    const local = { env: { APP_DOMAIN: "localhost" } as Partial<Cloudflare.Env> };
    for (const origin of ["http://localhost:8787", `http://${school.slug}.localhost:8787`]) {
      const started = await api(`${origin}/api/auth/oidc/google/start?school=${school.slug}`, local);
      expect(started.status, origin).toBe(302);
      const redirect = new URL(started.headers.get("Location")!).searchParams.get("redirect_uri");
      expect(redirect, origin).toBe("http://localhost:8787/api/auth/oidc/google/callback");
    }
    expect((await api(`http://127.0.0.1:8787/api/auth/oidc/google/start?school=${school.slug}`, local)).status).toBe(400);
  });

  it("takes a ticket only on the host it was issued for, and leaves it for that host", async () => {
    const school = await schoolWith("google");
    const origin = `https://${school.slug}.lectern.test`;
    const started = await start("google", school.slug, origin);
    const next = (await api(await atProvider(started.location, "kay@school.example.org"))).headers.get("Location")!;
    expect(next.startsWith(`${origin}/api/auth/oidc/complete?ticket=`)).toBe(true);
    // The same ticket and the starter's own cookie, on the main host: no sign-in under way there.
    const elsewhere = new URL(next);
    elsewhere.host = "lectern.test";
    const moved = await api(elsewhere.toString(), { cookie: started.cookie });
    expect(moved.status).toBe(400);
    expect(cookiesOf(moved).some((c) => c.includes("lectern_teacher="))).toBe(false);
    const done = await api(next, { cookie: started.cookie });
    expect(done.headers.get("Location")).toBe(`${origin}/dashboard`);
  });
});

describe("a state", () => {
  it("signs in once: the provider's page visited again with the same state gives no second ticket", async () => {
    const school = await schoolWith("google");
    const first = await signIn("google", school.slug, "once@school.example.org");
    expect(first.done?.status).toBe(302);
    const state = new URL(first.started.location).searchParams.get("state")!;
    // The same authorisation URL again: the provider answers a fresh code with the same state.
    for (const email of ["once@school.example.org", "other@school.example.org"]) {
      const callback = await atProvider(first.started.location, email);
      expect(new URL(callback).searchParams.get("state")).toBe(state);
      expect(new URL(callback).searchParams.get("code")).not.toBe(new URL(first.callback).searchParams.get("code"));
      const again = await api(callback);
      expect(again.headers.get("Location"), email).toBe(`https://lectern.test/schools/${school.slug}?signInError=state`);
    }
    // Nor does it register anyone: it is refused before its code is exchanged.
    const registered = await db().select().from(teachers).where(eq(teachers.schoolId, school.id));
    expect(registered.map((t) => t.email)).toEqual(["once@school.example.org"]);
    // The used state is kept (without a ticket) until it has expired.
    const rows = await db().select().from(oidcRequests).where(eq(oidcRequests.schoolId, school.id));
    expect(rows.map((r) => r.handoffHash)).toEqual([null]);
  });

  it("has expired before its marker could go: the row is swept 10 minutes after the callback, the state sealed before it for 10", async () => {
    const school = await schoolWith("google");
    const first = await signIn("google", school.slug, "late@school.example.org");
    const [row] = await db().select().from(oidcRequests).where(eq(oidcRequests.schoolId, school.id));
    const app = providerApps(env).google!;
    const input = { params: new URL(first.callback).searchParams, redirectUri: "https://lectern.test/api/auth/oidc/google/callback" };
    // The state was sealed before its row was written, for as long as the row is kept: it no longer
    // opens (no sign-in named, 400) already just before the sweep may take the row, and after.
    for (const at of [row!.createdAt + SIGN_IN_TTL_MS - 1, row!.createdAt + SIGN_IN_TTL_MS + 1]) {
      expect(await finishSignIn(db(), app, env.AUTH_SECRET, input, at)).toEqual({ ok: false, reason: "state", returnTo: null, slug: null });
    }
  });
});
