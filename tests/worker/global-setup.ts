// Runs in Node before the worker tests: a real SMTP server for the Worker's mail to land in, and
// two real OpenID providers on loopback standing in for Google and Microsoft (docs/decisions/0029).
import type { TestProject } from "vitest/node";
import { startLocalProvider } from "../../scripts/lib/oidc-provider.ts";
import { startMailCatcher } from "../support/mail-catcher.ts";

declare module "vitest" {
  export interface ProvidedContext {
    smtpPort: number;
    mailCatcherPort: number;
    googleIssuer: string;
    microsoftIssuer: string;
  }
}

/** The client the Worker under test is, at each provider (its secrets are the bindings in vitest.config.ts). */
export const TEST_OIDC_CLIENTS = {
  google: { clientId: "lectern-test-google", clientSecret: "google-test-secret-0123456789" },
  microsoft: { clientId: "lectern-test-microsoft", clientSecret: "microsoft-test-secret-0123456789" },
  tenantId: "11111111-2222-3333-4444-555555555555",
};

export default async function setup(project: TestProject) {
  const catcher = await startMailCatcher();
  project.provide("smtpPort", catcher.smtpPort);
  project.provide("mailCatcherPort", catcher.httpPort);
  const redirect = (provider: string) => [`https://lectern.test/api/auth/oidc/${provider}/callback`];
  const google = await startLocalProvider({
    kind: "google",
    testControls: true,
    clients: [
      { ...TEST_OIDC_CLIENTS.google, redirectUris: redirect("google") },
      // Another application at the same provider: its codes and tokens are not Lectern's.
      { clientId: "another-app", clientSecret: "another-app-secret-0123456789", redirectUris: ["https://another.example/callback"] },
    ],
  });
  const microsoft = await startLocalProvider({
    kind: "microsoft",
    testControls: true,
    tenantId: TEST_OIDC_CLIENTS.tenantId,
    clients: [{ ...TEST_OIDC_CLIENTS.microsoft, redirectUris: redirect("microsoft") }],
  });
  project.provide("googleIssuer", google.issuer);
  project.provide("microsoftIssuer", microsoft.issuer);
  return async () => {
    await Promise.all([catcher.close(), google.close(), microsoft.close()]);
  };
}
