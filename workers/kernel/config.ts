import { z } from "zod";
import { cachedPer } from "../db/isolate-cache.ts";

const EnvSchema = z.object({
  APP_DOMAIN: z.string().min(1).default("localhost"),
  PUBLISHER_NAME: z.string().min(1).default("Lectern Press"),
  PUBLISHER_ADDRESS: z.string().default(""),
  PUBLISHER_PHONES: z.string().default(""),
  CONTACT_EMAIL: z.string().default(""),
  ALLOW_DEV_MODE: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().optional(),
  AUTH_SECRET: z.string({ error: "AUTH_SECRET is not set (see .dev.vars.example)" }).min(32, "AUTH_SECRET needs at least 32 characters"),
});

export interface AppConfig {
  appDomain: string;
  publisher: { name: string; address: string; phones: string[]; email: string };
  /** Development Mode: one-time codes are shown instead of e-mailed (no mail transport configured). */
  devMode: boolean;
  mail: { smtpUrl: string; from: string } | null;
  /** Keys the HMAC of one-time codes. */
  authSecret: string;
}

/** The Worker's vars, validated once per isolate; bad configuration fails loudly rather than half-working. */
export const readConfig: (env: Record<string, unknown>) => AppConfig = cachedPer((env) => parseConfig(env));

function parseConfig(env: Record<string, unknown>): AppConfig {
  const vars = EnvSchema.parse(env);
  const smtpUrl = vars.SMTP_URL?.trim() ?? "";
  return {
    appDomain: vars.APP_DOMAIN.toLowerCase(),
    publisher: {
      name: vars.PUBLISHER_NAME,
      address: vars.PUBLISHER_ADDRESS,
      phones: vars.PUBLISHER_PHONES.split(",")
        .map((p) => p.trim())
        .filter(Boolean),
      email: vars.CONTACT_EMAIL,
    },
    devMode: !smtpUrl && vars.ALLOW_DEV_MODE === "true",
    mail: smtpUrl ? { smtpUrl, from: vars.MAIL_FROM ?? `no-reply@${vars.APP_DOMAIN}` } : null,
    authSecret: vars.AUTH_SECRET,
  };
}
