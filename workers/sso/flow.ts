/**
 * A teacher's sign-in through the school's Google or Microsoft accounts (docs/decisions/0029):
 *   1. start, on the host the teacher is on (APP_DOMAIN or the school's subdomain of it, the
 *      address the sign-in comes back to): nothing is written. The `state` sent to the provider
 *      is sealed (encrypted and signed with a key from AUTH_SECRET, 10 minutes): the school, the
 *      nonce, the PKCE verifier, where the teacher began and a random id, which also goes in a
 *      cookie on that host;
 *   2. the provider's answer, on the deployment's one registered callback: the state opened (and
 *      not used before), the code exchanged and the ID token checked, then the school's rules
 *      (domain, tenant, verified address, teacher limit, disabled account); the teacher found or
 *      registered; only then a row, keyed by the state's id and kept until the state has expired
 *      (so a state signs in once), with a one-time ticket;
 *   3. complete, back on the teacher's host: the ticket taken once and only on that host, its
 *      state id equal to the cookie (the browser that began is the one that ends), and the
 *      school's object opens the session.
 * A script can make none of these write to D1 without a real sign-in at the provider. Refusals
 * after the provider vouched for an answer are audited with their reason.
 */
import { and, eq, sql } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import { describeDevice } from "../auth/device.ts";
import { type HotState, openTeacherSession } from "../auth/sessions.ts";
import { randomToken, sha256Hex } from "../auth/tokens.ts";
import { type Db, runTransaction } from "../db/client.ts";
import { auditLog, loginEvents, oidcRequests, type School, schools, teachers } from "../db/schema.ts";
import { emailDomain } from "../validation/schemas.ts";
import { authorizationUrl, type OidcFailure, verifiedIdentity } from "./oidc.ts";
import { PROVIDER_LABELS, type ProviderApp, type ProviderName } from "./providers.ts";
import { openState, type SealedState, SIGN_IN_TTL_MS, sealState } from "./sealed-state.ts";
import { providerSettings } from "./settings.ts";

/** Why a provider sign-in was refused: the login page says the sentence (`?signInError=`). */
export type SignInRefusal = OidcFailure | "off" | "state" | "unverified" | "domain" | "tenant" | "limit" | "disabled" | "browser";

export const REFUSALS: Record<SignInRefusal, string> = {
  off: "This school does not sign in with that account. Use your e-mail and password.",
  state: "This sign-in link has expired or was already used. Please sign in again.",
  browser: "This sign-in was started in another browser or tab. Please sign in again here.",
  denied: "The sign-in was cancelled at your account's provider.",
  code: "Your account's provider did not confirm the sign-in (the code was refused or already used). Please sign in again.",
  audience: "The sign-in could not be verified: the provider's answer was not meant for Lectern.",
  issuer: "The sign-in could not be verified: the answer did not come from the expected provider.",
  expired: "The sign-in could not be verified: the provider's answer has expired. Please sign in again.",
  nonce: "The sign-in could not be verified: the answer belongs to another sign-in. Please sign in again.",
  signature: "The sign-in could not be verified: the answer was not signed by the provider.",
  unreachable: "Your account's provider could not be reached. Please try again in a moment.",
  invalid: "The sign-in could not be verified. Please sign in again.",
  unverified: "Your account's e-mail address is not verified, so it cannot sign you in here.",
  domain: "This school only accepts accounts from its own e-mail domains. Sign in with your school account.",
  tenant: "This account belongs to another organisation than your school's.",
  limit: "This school has reached its teacher limit. Please contact your school administrator.",
  disabled: "Your account has been disabled. Please contact your school administrator.",
};

const failed = (reason: SignInRefusal) => ({ ok: false as const, reason });

/** Step 1: the provider's sign-in page for this school, and the state's id for the cookie. One D1 read, no write. */
export async function startSignIn(
  db: Db,
  app: ProviderApp,
  secret: string,
  input: { school: School; returnTo: string; redirectUri: string },
  now = Date.now(),
): Promise<{ ok: true; url: string; stateId: string } | { ok: false; reason: SignInRefusal }> {
  const settings = await providerSettings(db, input.school.id, app.name);
  if (!settings.enabled) return failed("off");
  const state: SealedState = {
    id: oauth.generateRandomState(),
    school: input.school.id,
    provider: app.name,
    nonce: oauth.generateRandomNonce(),
    verifier: oauth.generateRandomCodeVerifier(),
    returnTo: input.returnTo,
  };
  try {
    const url = await authorizationUrl(app, settings.tenantId, {
      redirectUri: input.redirectUri,
      state: await sealState(secret, state, now),
      nonce: state.nonce,
      codeVerifier: state.verifier,
      domainHint: settings.domains.length === 1 ? settings.domains[0] : undefined,
    });
    return { ok: true, url, stateId: state.id };
  } catch {
    return failed("unreachable");
  }
}

export type CallbackOutcome =
  | { ok: true; next: string }
  | { ok: false; reason: SignInRefusal; returnTo: string | null; slug: string | null };

/** Refusals a script can cause without signing in at the provider: answered, not audited (no write for free). */
const UNVOUCHED = new Set<SignInRefusal>(["state", "denied", "code", "unreachable", "off"]);

/**
 * Step 2, on the registered callback: the state opened, the answer verified, the school's rules
 * applied, the teacher found or registered, and a one-time ticket for step 3 in a row keyed by the
 * state's id: a state that already signed someone in is refused.
 */
export async function finishSignIn(
  db: Db,
  app: ProviderApp,
  secret: string,
  input: { params: URLSearchParams; redirectUri: string },
  now = Date.now(),
): Promise<CallbackOutcome> {
  const sealed = input.params.get("state") ?? "";
  const state = sealed ? await openState(secret, sealed, app.name, now) : null;
  if (!state) return { ok: false, reason: "state", returnTo: null, slug: null };
  // The school, and whether this state already signed someone in (its row outlives the state).
  const [[school], [used]] = await db.batch([
    db.select().from(schools).where(eq(schools.id, state.school)),
    db.select({ state: oidcRequests.state }).from(oidcRequests).where(eq(oidcRequests.state, state.id)),
  ]);
  if (!school) return { ok: false, reason: "state", returnTo: null, slug: null };
  const refuse = async (reason: SignInRefusal, email?: string, detail?: string) => {
    if (!UNVOUCHED.has(reason)) await audit(db, { school, provider: app.name, email, reason, detail }, now);
    return { ok: false as const, reason, returnTo: state.returnTo, slug: school.slug };
  };
  // Refused before its code is spent or anyone registered: a state signs in once (decision 29).
  if (used) return refuse("state");

  const settings = await providerSettings(db, school.id, app.name);
  if (!settings.enabled) return refuse("off");
  const verified = await verifiedIdentity(app, settings.tenantId, {
    params: input.params,
    state: sealed,
    nonce: state.nonce,
    codeVerifier: state.verifier,
    redirectUri: input.redirectUri,
  });
  if (!verified.ok) return refuse(verified.reason, undefined, verified.detail);
  const { identity } = verified;
  if (!identity.emailVerified) return refuse("unverified", identity.email);
  // The domain after the only "@" of a plain address: `x@school.org@evil.test` is not school.org's.
  const domain = emailDomain(identity.email);
  if (!domain || !settings.domains.includes(domain)) return refuse("domain", identity.email);
  if (settings.tenantId && identity.tenantId !== settings.tenantId) return refuse("tenant", identity.email);

  // The same verified address at this school is the same teacher, however they registered.
  const teacher = await findOrRegister(db, school, identity, now);
  if (teacher === "limit") return refuse("limit", identity.email);
  if (teacher.disabled) return refuse("disabled", identity.email);

  const ticket = randomToken();
  const [saved] = await db.batch([
    db
      .insert(oidcRequests)
      .values({
        state: state.id,
        schoolId: school.id,
        provider: app.name,
        returnTo: state.returnTo,
        handoffHash: await sha256Hex(ticket),
        teacherId: teacher.id,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ state: oidcRequests.state }),
    // Rows older than a state's life: their state has expired (it was sealed before the row was
    // written, for as long), so a used state's row is no longer needed to refuse it.
    db.delete(oidcRequests).where(sql`${oidcRequests.createdAt} < ${now - SIGN_IN_TTL_MS}`),
  ]);
  // This state signed someone in already (an answer replayed): no second ticket.
  if (!saved.length) return refuse("state");
  const next = new URL("/api/auth/oidc/complete", state.returnTo);
  next.searchParams.set("ticket", ticket);
  return { ok: true, next: next.toString() };
}

/**
 * The teacher of this school with this address, or a new one within the school's teacher limit
 * (the insert is guarded in SQL, as registration's is). A provider's teacher has no password:
 * "Forgot password?" gives them one if they want the e-mail form too.
 */
async function findOrRegister(
  db: Db,
  school: School,
  identity: { email: string; name: string },
  now: number,
): Promise<{ id: number; name: string; email: string; disabled: boolean } | "limit"> {
  const select = () =>
    db
      .select({ id: teachers.id, name: teachers.name, email: teachers.email, disabled: teachers.disabled })
      .from(teachers)
      .where(and(eq(teachers.schoolId, school.id), eq(teachers.email, identity.email)));
  const [existing] = await select();
  if (existing) return existing;
  try {
    await runTransaction(db, [
      sql`INSERT INTO teachers (school_id, name, email, mobile, password_hash, created_at)
        SELECT ${school.id}, ${identity.name}, ${identity.email}, '', ${NO_PASSWORD}, ${now}
        WHERE (SELECT count(*) FROM teachers WHERE school_id = ${school.id} AND erased_at IS NULL) < (SELECT teacher_limit FROM schools WHERE id = ${school.id})`,
    ]);
  } catch (error) {
    // The same address registering at the same moment: the other request made the account.
    if (!String(error).includes("UNIQUE")) throw error;
  }
  const [created] = await select();
  return created ?? "limit";
}

/** A password hash no password matches (not the format password.ts writes). */
export const NO_PASSWORD = "!provider-sign-in";

/**
 * Step 3, on the teacher's host: the ticket taken (once, and only on the host it was issued for),
 * the state cookie matched, the session opened by the school's object. The dashboard's address,
 * or why not.
 */
export async function completeSignIn(
  db: Db,
  hot: HotState,
  input: { ticket: string; origin: string; cookieState: string | null; userAgent: string | null },
  now = Date.now(),
): Promise<{ ok: true; token: string; next: string } | { ok: false; reason: SignInRefusal; returnTo: string | null; slug: string | null }> {
  const hash = await sha256Hex(input.ticket);
  // The ticket is used up but its row stays, keyed by the state's id, until it is swept with the
  // state long expired: a state signs in once, however many codes the provider gives for it.
  // On another host than the one it was issued for (`returnTo` is that origin and the school's
  // base path) the ticket names no sign-in and stays for its own host.
  const [request] = await db
    .update(oidcRequests)
    .set({ handoffHash: null })
    .where(
      and(
        eq(oidcRequests.handoffHash, hash),
        sql`${oidcRequests.createdAt} >= ${now - SIGN_IN_TTL_MS}`,
        sql`(${oidcRequests.returnTo} = ${input.origin} OR substr(${oidcRequests.returnTo}, 1, ${input.origin.length + 1}) = ${`${input.origin}/`})`,
      ),
    )
    .returning();
  if (!request?.teacherId) return { ok: false, reason: "state", returnTo: null, slug: null };
  const [school] = await db.select().from(schools).where(eq(schools.id, request.schoolId));
  if (!school) return { ok: false, reason: "state", returnTo: null, slug: null };
  const back = { returnTo: request.returnTo, slug: school.slug };
  if (!input.cookieState || input.cookieState !== request.state) {
    await audit(db, { school, provider: request.provider, reason: "browser" }, now);
    return { ok: false, reason: "browser", ...back };
  }
  const [teacher] = await db
    .select({ id: teachers.id, name: teachers.name, email: teachers.email, disabled: teachers.disabled })
    .from(teachers)
    .where(and(eq(teachers.id, request.teacherId), eq(teachers.schoolId, school.id)));
  if (!teacher || teacher.disabled) return { ok: false, reason: "disabled", ...back };
  const token = await openTeacherSession(hot, school, teacher, describeDevice(input.userAgent), now);
  if (!token) return { ok: false, reason: "disabled", ...back };
  await db.batch([
    db.insert(loginEvents).values({ kind: "teacher", schoolId: school.id, teacherId: teacher.id, at: now }),
    db
      .update(schools)
      .set({ totalLogins: sql`${schools.totalLogins} + 1` })
      .where(eq(schools.id, school.id)),
  ]);
  return { ok: true, token, next: `${request.returnTo}/dashboard` };
}

/** A refused provider sign-in in the audit log: which school, provider, address and why. */
async function audit(
  db: Db,
  entry: { school: School; provider: ProviderName; email?: string; reason: SignInRefusal; detail?: string },
  now: number,
) {
  await db.insert(auditLog).values({
    adminId: null,
    adminEmail: entry.email ?? `(${PROVIDER_LABELS[entry.provider]} sign-in)`,
    action: "teacher.sign-in-refused",
    entityType: "school",
    entityId: String(entry.school.id),
    after: { provider: entry.provider, email: entry.email ?? null, reason: entry.reason, detail: entry.detail?.slice(0, 500) ?? null },
    at: now,
  });
}
