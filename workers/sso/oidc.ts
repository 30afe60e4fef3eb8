/**
 * The OpenID Connect client (docs/decisions/0029), on oauth4webapi (the authorisation request, the
 * code exchange with PKCE, the ID token's issuer, audience, expiry and nonce) and jose (the ID
 * token's signature against the provider's published keys, which oauth4webapi leaves to TLS).
 * Nothing here trusts a claim before both have passed.
 */
import { createRemoteJWKSet, decodeJwt, type JWTVerifyGetKey, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { z } from "zod";
import { discoveryIssuer, type ProviderApp, TENANT_PLACEHOLDER } from "./providers.ts";

/** Why a sign-in came back refused: each has its sentence in flow.ts. */
export type OidcFailure = "denied" | "code" | "audience" | "issuer" | "expired" | "nonce" | "signature" | "unreachable" | "invalid";

export interface Identity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  /** Microsoft's tenant (`tid`), when the token names one. */
  tenantId: string | null;
}

const METADATA_TTL_MS = 3600_000;
const metadata = new Map<string, { server: oauth.AuthorizationServer; at: number }>();
const keySets = new Map<string, JWTVerifyGetKey>();

/** Plain http only for a provider on this machine (the tests', Development Mode's). */
const onLoopback = (url: string) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(url);
const requestOptions = (url: string) => ({ [oauth.allowInsecureRequests]: onLoopback(url) });

const DiscoverySchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});

/**
 * The provider's metadata, kept an hour per isolate. Read directly rather than through
 * oauth4webapi's discovery, because Microsoft's multi-tenant document names its issuer as a
 * template (`.../{tenantid}/v2.0`) that no exact comparison accepts.
 */
async function serverOf(issuer: string): Promise<oauth.AuthorizationServer> {
  const cached = metadata.get(issuer);
  if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.server;
  const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  if (!url.startsWith("https://") && !onLoopback(url)) throw new Error(`The provider's issuer must be https: ${issuer}`);
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`Discovery at ${url} answered ${response.status}`);
  const server = DiscoverySchema.parse(await response.json()) as oauth.AuthorizationServer;
  metadata.set(issuer, { server, at: Date.now() });
  return server;
}

function keysOf(jwksUri: string): JWTVerifyGetKey {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri), { cacheMaxAge: METADATA_TTL_MS });
    keySets.set(jwksUri, keys);
  }
  return keys;
}

/** Where the teacher goes to sign in: the code flow with PKCE (S256), a state and a nonce. */
export async function authorizationUrl(
  app: ProviderApp,
  tenantId: string | null,
  request: { redirectUri: string; state: string; nonce: string; codeVerifier: string; domainHint?: string },
): Promise<string> {
  const server = await serverOf(discoveryIssuer(app, tenantId));
  const url = new URL(server.authorization_endpoint!);
  url.searchParams.set("client_id", app.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", "openid email profile");
  url.searchParams.set("state", request.state);
  url.searchParams.set("nonce", request.nonce);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(request.codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("prompt", "select_account");
  // Google shows the school's accounts first (`hd`); Microsoft takes a domain hint.
  if (request.domainHint) url.searchParams.set(app.name === "google" ? "hd" : "domain_hint", request.domainHint);
  return url.toString();
}

/**
 * The provider's answer checked end to end: the state it carries (already matched by the caller),
 * the code exchanged with the verifier, then the ID token's issuer, audience, expiry, nonce and
 * signature. The identity, or why not.
 */
export async function verifiedIdentity(
  app: ProviderApp,
  tenantId: string | null,
  answer: { params: URLSearchParams; state: string; nonce: string; codeVerifier: string; redirectUri: string },
): Promise<{ ok: true; identity: Identity } | { ok: false; reason: OidcFailure; detail?: string }> {
  let server: oauth.AuthorizationServer;
  try {
    server = await serverOf(discoveryIssuer(app, tenantId));
  } catch (error) {
    return { ok: false, reason: "unreachable", detail: String(error) };
  }
  const client: oauth.Client = { client_id: app.clientId };
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(server, client, answer.params, answer.state);
  } catch (error) {
    // The provider's own refusal (the teacher cancelled), or an answer that is not one: nothing the provider vouched for.
    const denied = error instanceof oauth.AuthorizationResponseError;
    return { ok: false, reason: denied ? "denied" : "code", detail: String(error) };
  }
  let response: Response;
  try {
    response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      oauth.ClientSecretPost(app.clientSecret),
      params,
      answer.redirectUri,
      answer.codeVerifier,
      requestOptions(server.token_endpoint!),
    );
  } catch (error) {
    return { ok: false, reason: "unreachable", detail: String(error) };
  }
  // Microsoft's multi-tenant issuer: the token must name the tenant it says it comes from.
  let expected = server;
  if (server.issuer.includes(TENANT_PLACEHOLDER)) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { id_token?: unknown } | null;
    const tid = typeof body?.id_token === "string" ? decodeJwt(body.id_token).tid : undefined;
    if (typeof tid !== "string" || !tid) return { ok: false, reason: "issuer", detail: "The token names no tenant" };
    expected = { ...server, issuer: server.issuer.replace(TENANT_PLACEHOLDER, tid) };
  }
  let tokens: oauth.TokenEndpointResponse;
  try {
    tokens = await oauth.processAuthorizationCodeResponse(expected, client, response, {
      expectedNonce: answer.nonce,
      requireIdToken: true,
    });
  } catch (error) {
    return { ok: false, reason: tokenFailure(error), detail: String(error) };
  }
  try {
    await jwtVerify(tokens.id_token!, keysOf(server.jwks_uri!), { issuer: expected.issuer, audience: app.clientId });
  } catch (error) {
    return { ok: false, reason: "signature", detail: String(error) };
  }
  const claims = oauth.getValidatedIdTokenClaims(tokens)!;
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email) return { ok: false, reason: "invalid", detail: "The token carries no e-mail address" };
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : email.split("@")[0]!;
  return {
    ok: true,
    identity: {
      subject: claims.sub,
      email,
      // Google says `email_verified`; Microsoft says the domain's owner verified it (`xms_edov`, an
      // optional claim the app asks for): a bare Microsoft `email` may be anyone's (the nOAuth flaw).
      emailVerified: claims.email_verified === true || claims.xms_edov === true,
      name: name.slice(0, 100),
      tenantId: typeof claims.tid === "string" ? claims.tid : null,
    },
  };
}

/** Which check an ID token failed, from oauth4webapi's error (its code, and the claim it names). */
function tokenFailure(error: unknown): OidcFailure {
  if (error instanceof oauth.ResponseBodyError) return "code";
  if (!(error instanceof oauth.OperationProcessingError)) return "invalid";
  const claim = (error.cause as { claim?: unknown } | undefined)?.claim;
  if (error.code === oauth.JWT_TIMESTAMP_CHECK) return "expired";
  if (error.code === oauth.JWT_CLAIM_COMPARISON || error.code === oauth.JSON_ATTRIBUTE_COMPARISON) {
    if (claim === "aud" || claim === "azp") return "audience";
    if (claim === "iss") return "issuer";
    if (claim === "nonce") return "nonce";
  }
  return "invalid";
}
