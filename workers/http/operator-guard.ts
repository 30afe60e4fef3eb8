/**
 * The operator's routes (workers/api/operator.ts: the school objects' storage for backups) answer
 * only a request that carries the Worker's OPERATOR_SECRET as a bearer token: a secret set with
 * `wrangler secret put OPERATOR_SECRET` that only the operator holds. No session opens them, an
 * admin's or a superadmin's included. Without the secret configured, or with any other token, they
 * answer 404 as an unknown path does, so a prober learns nothing (docs/decisions/0046).
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../kernel/context.ts";

/** Long enough that guessing is hopeless; a shorter one leaves the routes closed. */
const OperatorSecretSchema = z.string().min(32);

const encoder = new TextEncoder();

/** Compared as SHA-256 digests in constant time: neither the length nor a prefix of the secret leaks through timing. */
async function sameSecret(given: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([given, secret].map((text) => crypto.subtle.digest("SHA-256", encoder.encode(text))));
  return crypto.subtle.timingSafeEqual(a as ArrayBuffer, b as ArrayBuffer);
}

export const requireOperator: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = OperatorSecretSchema.safeParse((c.env as unknown as Record<string, unknown>).OPERATOR_SECRET);
  const given = /^Bearer (\S+)$/.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!secret.success || !given || !(await sameSecret(given, secret.data))) return c.json({ error: "Not found" }, 404);
  return next();
};
