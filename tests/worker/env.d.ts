import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** `smtp://127.0.0.1:PORT` of the mail catcher (tests/support/mail-catcher.ts). */
      SMTP_TEST_URL: string;
      /** `http://127.0.0.1:PORT` of the mail catcher's message API. */
      MAIL_CATCHER_URL: string;
      /** The local OpenID providers (scripts/lib/oidc-provider.ts). */
      OIDC_GOOGLE_ISSUER: string;
      OIDC_MICROSOFT_ISSUER: string;
    }
  }
}
