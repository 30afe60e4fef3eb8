/**
 * Which of the publisher's providers a school signs in with, and the e-mail domains each allows
 * (docs/decisions/0029). Read on the school's login page and at every provider sign-in; written
 * by admins (`PUT /api/schools/{id}/sign-in`), audited.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type Actor, auditEntry } from "../admins/audit.ts";
import type { Db } from "../db/client.ts";
import { schoolSignIn, schools } from "../db/schema.ts";
import { PROVIDER_LABELS, PROVIDERS, type ProviderName } from "./providers.ts";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const MAX_DOMAINS = 20;

const DomainsSchema = z
  .array(
    z
      .string({ error: "Each domain is text, like school.org" })
      .trim()
      .toLowerCase()
      .transform((domain) => domain.replace(/^@/, ""))
      .refine((domain) => DOMAIN.test(domain), { error: (issue) => `“${String(issue.input)}” is not an e-mail domain, like school.org` }),
    { error: "Give the domains as a list" },
  )
  .max(MAX_DOMAINS, `At most ${MAX_DOMAINS} domains`)
  .transform((domains) => [...new Set(domains)]);

const ProviderSettingsSchema = z.object({
  enabled: z.boolean({ error: "Say whether it is enabled (true or false)" }),
  domains: DomainsSchema.default([]),
});

/** PUT /api/schools/{id}/sign-in's body: both providers, each enabled or not with its domains. */
export const SignInSettingsSchema = z
  .object({
    google: ProviderSettingsSchema,
    microsoft: ProviderSettingsSchema.extend({
      tenantId: z
        .string()
        .trim()
        .toLowerCase()
        .regex(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          "The tenant id is a GUID, like 72f988bf-86f1-41af-91ab-2d7cd011db47",
        )
        .nullable()
        .optional()
        .transform((value) => value || null),
    }),
  })
  .superRefine((settings, ctx) => {
    for (const provider of PROVIDERS)
      if (settings[provider].enabled && settings[provider].domains.length === 0)
        ctx.addIssue({
          code: "custom",
          path: [provider, "domains"],
          message: `Give at least one e-mail domain for ${PROVIDER_LABELS[provider]}: only those addresses may sign in`,
        });
  });
export type SignInSettings = z.output<typeof SignInSettingsSchema>;

export interface ProviderSettings {
  enabled: boolean;
  domains: string[];
  tenantId: string | null;
}

const OFF: ProviderSettings = { enabled: false, domains: [], tenantId: null };

/** The school's settings for both providers (off where never set). */
export async function readSignIn(db: Db, schoolId: number): Promise<Record<ProviderName, ProviderSettings>> {
  const rows = await db.select().from(schoolSignIn).where(eq(schoolSignIn.schoolId, schoolId));
  const settings = { google: { ...OFF }, microsoft: { ...OFF } };
  for (const row of rows) settings[row.provider] = { enabled: row.enabled, domains: row.domains, tenantId: row.tenantId };
  return settings;
}

/** One provider's settings for the school, or off. */
export async function providerSettings(db: Db, schoolId: number, provider: ProviderName): Promise<ProviderSettings> {
  const [row] = await db
    .select()
    .from(schoolSignIn)
    .where(and(eq(schoolSignIn.schoolId, schoolId), eq(schoolSignIn.provider, provider)));
  return row ? { enabled: row.enabled, domains: row.domains, tenantId: row.tenantId } : { ...OFF };
}

/** Saves both providers' settings in one transaction with the audit entry; false when there is no such school. */
export async function saveSignIn(db: Db, actor: Actor, schoolId: number, settings: SignInSettings, now = Date.now()): Promise<boolean> {
  const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId));
  if (!school) return false;
  const before = await readSignIn(db, schoolId);
  const rows = PROVIDERS.map((provider) => ({
    schoolId,
    provider,
    enabled: settings[provider].enabled,
    domains: settings[provider].domains,
    tenantId: provider === "microsoft" ? settings.microsoft.tenantId : null,
    updatedAt: now,
  }));
  await db.batch([
    db
      .insert(schoolSignIn)
      .values(rows)
      .onConflictDoUpdate({
        target: [schoolSignIn.schoolId, schoolSignIn.provider],
        set: {
          enabled: sqlExcluded("enabled"),
          domains: sqlExcluded("domains"),
          tenantId: sqlExcluded("tenant_id"),
          updatedAt: now,
        },
      }),
    auditEntry(db, actor, { action: "school.sign-in", entityType: "school", entityId: schoolId, before, after: settings }, now),
  ]);
  return true;
}

const sqlExcluded = (column: string) => sql.raw(`excluded.${column}`);
