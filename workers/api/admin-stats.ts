import { Hono } from "hono";
import type { AdminEnv } from "./admin-session.ts";

/** Admin figures under /api/admin/stats. */
export const adminStatsApi = new Hono<AdminEnv>();
