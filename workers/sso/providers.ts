/**
 * The publisher's OpenID Connect applications (docs/decisions/0029): one at Google and one at
 * Microsoft, set once per deployment as Worker secrets (`.dev.vars` locally). A provider without
 * its client id and secret is off for every school. The issuer is configuration so the tests and
 * Development Mode can use a provider on loopback; Microsoft's may name `{tenantid}` (the
 * multi-tenant "organizations" endpoint), filled with the school's tenant or the token's own.
 */
import { z } from "zod";
import { cachedPer } from "../db/isolate-cache.ts";

export const PROVIDERS = ["google", "microsoft"] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export const ProviderNameSchema = z.enum(PROVIDERS, { error: "The provider is google or microsoft" });

export const PROVIDER_LABELS: Record<ProviderName, string> = { google: "Google", microsoft: "Microsoft" };

export interface ProviderApp {
  name: ProviderName;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const DEFAULT_ISSUERS: Record<ProviderName, string> = {
  google: "https://accounts.google.com",
  microsoft: "https://login.microsoftonline.com/organizations/v2.0",
};

const Env = z.object({
  OIDC_GOOGLE_CLIENT_ID: z.string().trim().optional(),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().trim().optional(),
  OIDC_GOOGLE_ISSUER: z.string().trim().optional(),
  OIDC_MICROSOFT_CLIENT_ID: z.string().trim().optional(),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().trim().optional(),
  OIDC_MICROSOFT_ISSUER: z.string().trim().optional(),
});

/** The providers this deployment has applications for. */
export const providerApps: (env: object) => Partial<Record<ProviderName, ProviderApp>> = cachedPer((env: object) => {
  const vars = Env.parse(env);
  const apps: Partial<Record<ProviderName, ProviderApp>> = {};
  const read = (name: ProviderName, id?: string, secret?: string, issuer?: string) => {
    if (id && secret) apps[name] = { name, clientId: id, clientSecret: secret, issuer: issuer || DEFAULT_ISSUERS[name] };
  };
  read("google", vars.OIDC_GOOGLE_CLIENT_ID, vars.OIDC_GOOGLE_CLIENT_SECRET, vars.OIDC_GOOGLE_ISSUER);
  read("microsoft", vars.OIDC_MICROSOFT_CLIENT_ID, vars.OIDC_MICROSOFT_CLIENT_SECRET, vars.OIDC_MICROSOFT_ISSUER);
  return apps;
});

/** Microsoft's multi-tenant issuer names no tenant: the one to discover from, and the one tokens must carry. */
export const TENANT_PLACEHOLDER = "{tenantid}";
export const discoveryIssuer = (app: ProviderApp, tenantId: string | null) =>
  app.issuer.replace("organizations", tenantId ?? "organizations").replace(TENANT_PLACEHOLDER, tenantId ?? "organizations");
