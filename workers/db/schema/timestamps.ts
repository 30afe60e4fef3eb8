// Shared column builders of the D1 tables.
import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

// Timestamps are Unix epoch milliseconds: one integer type for every clock in the app.
export const createdAt = () =>
  integer("created_at", { mode: "number" }).notNull().default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`);
