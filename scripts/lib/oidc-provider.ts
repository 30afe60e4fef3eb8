// A real OpenID provider on loopback (the `oidc-provider` package, the certified Node
// implementation), standing in for Google or for Microsoft: the tests sign teachers in through it,
// and `npm start` runs one of each in Development Mode (docs/decisions/0029). Its one sign-in page
// takes any e-mail address: the account is that address, verified unless it begins "unverified".
// For the tests, a "tamper" switch rewrites the next ID token the token endpoint returns (another
// audience, another key, expired, another nonce), signed as the test asks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider, { type Configuration } from "oidc-provider";
// The package's own in-memory store, given explicitly: the default one prints a warning meant for production set-ups.
import { createMemoryAdapter } from "oidc-provider/lib/adapters/memory_adapter.js";

export type Tamper = "audience" | "key" | "expired" | "nonce" | "issuer";

export interface LocalProvider {
  issuer: string;
  port: number;
  /** Rewrites the ID token of the next token response (one response only). */
  tamper(mode: Tamper | null): void;
  close(): Promise<void>;
}

export interface LocalProviderOptions {
  /** "google" or "microsoft": the name on the sign-in page, and Microsoft's `tid` claim. */
  kind: "google" | "microsoft";
  clients: { clientId: string; clientSecret: string; redirectUris: string[] }[];
  port?: number;
  /** The tenant id Microsoft's tokens carry (`tid`). */
  tenantId?: string;
  /** `POST /__test/tamper?mode=` sets the tamper switch over HTTP (for tests running inside workerd). */
  testControls?: boolean;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f1f5f9;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 3px #0002;width:min(22rem,90vw)}
h1{font-size:1.25rem;margin:0 0 .25rem}p{color:#475569;font-size:.875rem}label{display:block;font-weight:600;font-size:.875rem;margin:1rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #94a3b8;border-radius:8px;font-size:1rem}
button{margin-top:1rem;width:100%;padding:.7rem;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font-weight:600;font-size:1rem}</style></head>
<body><main>${body}</main></body></html>`;
}

export async function startLocalProvider(options: LocalProviderOptions): Promise<LocalProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = {
    ...(await exportJWK(privateKey)),
    kid: `${options.kind}-${crypto.randomUUID().slice(0, 8)}`,
    alg: "RS256",
    use: "sig",
  };
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const name = options.kind === "google" ? "Google (local)" : "Microsoft (local)";

  const configuration: Configuration = {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    })),
    adapter: createMemoryAdapter(),
    jwks: { keys: [jwk] },
    // The address is the account: e-mail and name in the ID token, as Google's and Microsoft's are.
    async findAccount(_ctx: unknown, id: string) {
      const email = id.toLowerCase();
      return {
        accountId: id,
        async claims() {
          return {
            sub: `sub-${email}`,
            email,
            email_verified: !email.startsWith("unverified"),
            name: email
              .split("@")[0]!
              .split(/[._-]/)
              .map((w: string) => w.charAt(0).toUpperCase() + w.slice(1))
              .join(" "),
            ...(options.kind === "microsoft" ? { tid: options.tenantId ?? "local-tenant" } : {}),
          };
        },
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], tid: ["tid"] },
    scopes: ["openid", "email", "profile"],
    // Google's `hd` and Microsoft's `domain_hint`: the sign-in page suggests an address at that domain.
    extraParams: ["hd", "domain_hint"],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: [crypto.randomUUID()] },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AuthorizationCode: 60, IdToken: 3600, AccessToken: 3600 },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  let tamperNext: Tamper | null = null;

  const handle = provider.callback();
  server.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? "/", issuer);
      if (options.testControls && url.pathname === "/__test/tamper" && req.method === "POST") {
        const mode = url.searchParams.get("mode");
        tamperNext = mode ? (mode as Tamper) : null;
        res.end("ok");
        return;
      }
      const interaction = url.pathname.match(/^\/interaction\/([\w-]+)$/);
      if (interaction && req.method === "GET") {
        const details = await provider.interactionDetails(req, res);
        const hint = typeof details.params.login_hint === "string" ? details.params.login_hint : "";
        const domain = [details.params.hd, details.params.domain_hint].find((value) => typeof value === "string" && value) as
          | string
          | undefined;
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.end(
          page(
            `Sign in · ${name}`,
            `<h1>Sign in</h1><p>${escapeHtml(name)}: a stand-in for the real provider, on this machine. Any address signs in as itself (one beginning “unverified” as an unverified address).</p>
<form method="post" action="/interaction/${escapeHtml(details.uid)}"><label for="email">Email</label>
<input id="email" name="email" type="email" required autocomplete="username" value="${escapeHtml(hint)}" placeholder="${escapeHtml(domain ? `you@${domain}` : "you@school.org")}">
<button type="submit">Continue</button></form>`,
          ),
        );
        return;
      }
      if (interaction && req.method === "POST") {
        const details = await provider.interactionDetails(req, res);
        const form = new URLSearchParams(await body(req));
        const accountId = (form.get("email") ?? "").trim();
        if (!accountId) {
          res.statusCode = 400;
          res.end("Enter an e-mail address");
          return;
        }
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return;
      }
      // Google's and Microsoft's `prompt=select_account`: this provider's one page always asks for the account.
      if (url.pathname === "/auth" && url.searchParams.get("prompt") === "select_account") {
        url.searchParams.set("prompt", "login");
        req.url = `${url.pathname}${url.search}`;
      }
      if (url.pathname === "/token" && tamperNext) {
        const mode = tamperNext;
        tamperNext = null;
        await rewriteIdToken(res, mode, { jwk, issuer });
      }
      handle(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });

  return {
    issuer,
    port,
    tamper(mode) {
      tamperNext = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections (the Worker's fetches, the browser's) would hold the close.
        server.closeAllConnections();
      }),
  };
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/** Holds the token response back and sends it with its ID token re-signed as `mode` says. */
async function rewriteIdToken(res: ServerResponse, mode: Tamper, own: { jwk: JWK; issuer: string }) {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown) => {
    if (chunk) chunks.push(Buffer.from(chunk as string));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown) => {
    if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk as string));
    void (async () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let out = text;
      try {
        const json = JSON.parse(text) as { id_token?: string };
        if (json.id_token) {
          const claims = decodeJwt(json.id_token);
          const now = Math.floor(Date.now() / 1000);
          const changed = { ...claims };
          if (mode === "audience") changed.aud = "some-other-client";
          if (mode === "expired") Object.assign(changed, { iat: now - 7200, exp: now - 3600 });
          if (mode === "nonce") changed.nonce = "not-the-nonce-we-sent";
          if (mode === "issuer") changed.iss = "https://issuer.example";
          const { importJWK } = await import("jose");
          const key = mode === "key" ? (await generateKeyPair("RS256")).privateKey : await importJWK(own.jwk, "RS256");
          json.id_token = await new SignJWT(changed).setProtectedHeader({ alg: "RS256", kid: own.jwk.kid }).sign(key);
          out = JSON.stringify(json);
        }
      } catch {}
      res.setHeader("Content-Length", Buffer.byteLength(out));
      write(out);
      end();
    })();
    return res;
  }) as typeof res.end;
}
