/**
 * Bookstore codes, for admins (docs/decisions/0053): batches, their codes, withdrawing them, the
 * redemptions CSV. Each route is guarded on its own: /api/codes/redeem (code-redeem.ts) shares the prefix.
 */
import { Hono } from "hono";
import type { AdminApiEnv } from "../http/guards.ts";

export const codesApi = new Hono<AdminApiEnv>();
