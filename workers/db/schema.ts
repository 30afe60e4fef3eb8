/**
 * Every D1 table in one module, for the two readers that need them all at once: the database
 * client (`drizzle(d1, { schema })` builds its relational config from every table) and the code
 * that imports tables from one place. The tables themselves live by concept in workers/db/schema/
 * (drizzle-kit reads that folder, drizzle.config.ts); the usage rollups in usage-schema.ts.
 */
export * from "./schema/audit-log.ts";
export * from "./schema/book-imports.ts";
export * from "./schema/catalogue.ts";
export * from "./schema/codes.ts";
export * from "./schema/licences.ts";
export * from "./schema/page-preparation.ts";
export * from "./schema/people.ts";
export * from "./schema/rate-limits.ts";
export * from "./schema/reading.ts";
export * from "./schema/schools.ts";
export * from "./schema/sign-in.ts";
