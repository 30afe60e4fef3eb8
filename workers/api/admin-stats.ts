import { Hono } from "hono";
import { adminTotals } from "../admins/stats.ts";
import { type AdminApiEnv, requireAdmin } from "../http/guards.ts";

/** Admin figures under /api/admin/stats. */
export const adminStatsApi = new Hono<AdminApiEnv>().get("/teacher-count", requireAdmin, async (c) =>
  c.json(await adminTotals(c.var.context.db)),
);
