import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Fixed-window counters for throttling (login failures, OTP sends, PDF byte budgets).
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull().default(0),
    windowStart: integer("window_start", { mode: "number" }).notNull(),
    blockedUntil: integer("blocked_until", { mode: "number" }),
  },
  (t) => [index("rate_limits_window_idx").on(t.windowStart)],
);
