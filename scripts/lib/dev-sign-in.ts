/**
 * Sign-in with Google and Microsoft without their applications (docs/decisions/0029): for each
 * provider whose client id and secret are not set (in the environment or .dev.vars), a real OpenID
 * provider on loopback (scripts/lib/oidc-provider.ts) stands in for it, and `wrangler dev` is
 * pointed at it with `--var`. `npm start` uses it in Development Mode; the e2e set-up always uses
 * the stand-ins.
 */
import { localVars } from "./local-state.ts";
import { type LocalProvider, startLocalProvider } from "./oidc-provider.ts";

const PROVIDERS = ["google", "microsoft"] as const;
type Provider = (typeof PROVIDERS)[number];

/** The ports `npm start` tries first, so the stand-ins' addresses stay the same from run to run. */
export const DEV_PROVIDER_PORTS: Record<Provider, number> = { google: 8801, microsoft: 8802 };

/** How a provider signs teachers in here: the stand-in on loopback, or the publisher's own application. */
export type DevProviderMode = { kind: "local"; issuer: string } | { kind: "configured"; source: "environment" | ".dev.vars" };

export interface DevSignIn {
  modes: Record<Provider, DevProviderMode>;
  /** `--var NAME:value` pairs for `wrangler dev`. */
  wranglerArgs: string[];
  close(): Promise<void>;
}

const names = (provider: Provider) => {
  const prefix = `OIDC_${provider.toUpperCase()}`;
  return { id: `${prefix}_CLIENT_ID`, secret: `${prefix}_CLIENT_SECRET`, issuer: `${prefix}_ISSUER` };
};

/**
 * Starts a stand-in for each provider the deployment has no application for (or for both, with
 * `alwaysLocal`), registered with the callback URLs the Worker on `appPort` builds: its APP_DOMAIN
 * (`localhost` locally) with the request's port, and 127.0.0.1 in case APP_DOMAIN says so.
 */
export async function startDevSignIn(options: {
  appPort: number;
  /** Ports to try first (a free one if taken); any free port when not given. */
  ports?: Partial<Record<Provider, number>>;
  alwaysLocal?: boolean;
}): Promise<DevSignIn> {
  const vars = localVars();
  const appDomain = (vars.APP_DOMAIN ?? "localhost").toLowerCase();
  const hosts = [...new Set([appDomain, "localhost", "127.0.0.1"])];
  const modes = {} as Record<Provider, DevProviderMode>;
  const wranglerArgs: string[] = [];
  const started: LocalProvider[] = [];
  const setVar = (name: string, value: string) => wranglerArgs.push("--var", `${name}:${value}`);

  for (const provider of PROVIDERS) {
    const name = names(provider);
    const fromEnv = process.env[name.id]?.trim() && process.env[name.secret]?.trim();
    const fromDevVars = vars[name.id]?.trim() && vars[name.secret]?.trim();
    if (!options.alwaysLocal && fromEnv) {
      // wrangler gives the Worker .dev.vars, not the environment: pass them on.
      for (const key of [name.id, name.secret, name.issuer]) if (process.env[key]?.trim()) setVar(key, process.env[key]!.trim());
      modes[provider] = { kind: "configured", source: "environment" };
      continue;
    }
    if (!options.alwaysLocal && fromDevVars) {
      modes[provider] = { kind: "configured", source: ".dev.vars" };
      continue;
    }
    const client = { clientId: `lectern-dev-${provider}`, clientSecret: `lectern-dev-${provider}-secret-0123456789` };
    const settings = {
      kind: provider,
      clients: [{ ...client, redirectUris: hosts.map((host) => `http://${host}:${options.appPort}/api/auth/oidc/${provider}/callback`) }],
    };
    const wanted = options.ports?.[provider];
    let local: LocalProvider;
    try {
      local = await startLocalProvider({ ...settings, port: wanted ?? 0 });
    } catch (error) {
      if (!wanted || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      local = await startLocalProvider(settings);
    }
    started.push(local);
    setVar(name.id, client.clientId);
    setVar(name.secret, client.clientSecret);
    setVar(name.issuer, local.issuer);
    modes[provider] = { kind: "local", issuer: local.issuer };
  }

  return {
    modes,
    wranglerArgs,
    close: async () => {
      await Promise.all(started.map((provider) => provider.close()));
    },
  };
}
