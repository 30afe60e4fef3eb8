import { Hono } from "hono";
import { adminTotals } from "../admins/stats.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";

/** Admin figures under /api/admin/stats. */
export const adminStatsApi = new Hono<AdminApiEnv>().get("/teacher-count", requireRole("admin"), async (c) =>
  c.json(await adminTotals(c.var.context.db)),
);
