import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { findSchoolById } from "../auth/sessions.ts";
import { type AdminApiEnv, actorOf, requireAdmin } from "../http/guards.ts";
import { requireSameOrigin } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";
import { schoolObject } from "../school/objects.ts";
import { findSchoolDetail, listSchoolBooksForAdmin } from "../schools/detail.ts";
import { createSchool, deleteSchool, nextSchoolId, updateSchool } from "../schools/editing.ts";
import { importSchools, updateDuplicateSchools, validateImportRows } from "../schools/import.ts";
import { ImportBodySchema } from "../schools/import-rows.ts";
import { SchoolIdSchema, SchoolInputSchema, SchoolUpdateSchema } from "../schools/input.ts";
import { ListQuerySchema, listSchools, searchSchools } from "../schools/list.ts";
import {
  IncreaseLoginCountSchema,
  IncreaseTotalLoginSchema,
  increaseTeacherLimit,
  increaseTotalLogins,
  loginHistory,
  schoolLoginRecord,
} from "../schools/logins.ts";
import { toPublicSchool } from "../schools/public-school.ts";
import { SlugSchema } from "../schools/slug.ts";
import { generateUniqueSlugs, slugTaken } from "../schools/slugs.ts";
import type { WriteResult } from "../schools/write-guards.ts";
import { SlugParamSchema } from "../validation/schemas.ts";

const SlugParamsSchema = z.object({ slug: SlugParamSchema });
const IdParamSchema = z.object({ id: SchoolIdSchema });
const SlugCheckSchema = z.object({ slug: z.string().max(200).default("") });
const SearchQuerySchema = z.object({ query: z.string().trim().max(200, "Search for at most 200 characters").default("") });
const LoginRecordSchema = z.object({ schoolId: z.number({ error: "Choose a school" }).int().positive() });
const HistoryQuerySchema = z.object({
  days: z.coerce.number({ error: "Enter 1 to 365" }).int("Enter 1 to 365").min(1, "Enter 1 to 365").max(365, "Enter 1 to 365").default(90),
});

/** Add School's address check: free, or why not (with a free variant when it is taken). */
type SlugCheck = { available: true } | { available: false; reason: string; suggestion?: string };

/** A failed write as its status and `{ error }`. */
function refused(c: Context<AdminApiEnv>, result: Extract<WriteResult<object>, { ok: false }>) {
  return c.json({ error: result.error }, result.status);
}

/**
 * /api/schools: the public school page's lookup (/slug/:slug), and everything else for admins
 * only. Literal paths come before /:id.
 */
export const schoolsApi = new Hono<AdminApiEnv>()
  // The school is the one the request context read from this path (or the school's own host).
  .get("/slug/:slug", validate("param", SlugParamsSchema), async (c) => {
    const { school } = c.var.context.tenant;
    if (!school) return c.json({ error: "School not found" }, 404);
    c.header("Cache-Control", "public, max-age=60");
    return c.json(toPublicSchool(school));
  })
  .get("/slug/:slug/login-history", requireAdmin, validate("param", SlugParamsSchema), validate("query", HistoryQuerySchema), async (c) => {
    const { school } = c.var.context.tenant;
    if (!school) return c.json({ error: "School not found" }, 404);
    return c.json(await loginHistory(c.var.context.db, school.id, c.req.valid("query").days));
  })
  .get("/", requireAdmin, validate("query", ListQuerySchema), async (c) =>
    c.json(await listSchools(c.var.context.db, c.req.valid("query"))),
  )
  .get("/search", requireAdmin, validate("query", SearchQuerySchema), async (c) =>
    c.json({ schools: await searchSchools(c.var.context.db, c.req.valid("query").query) }),
  )
  .get("/next-id", requireAdmin, async (c) => c.json({ nextId: await nextSchoolId(c.var.context.db) }))
  // Add School checks the address while the admin types: format and reserved words first.
  .get("/slug-available", requireAdmin, validate("query", SlugCheckSchema), async (c) => {
    const parsed = SlugSchema.safeParse(c.req.valid("query").slug);
    let answer: SlugCheck = { available: true };
    if (!parsed.success) answer = { available: false, reason: parsed.error.issues[0]?.message ?? "Not a valid address" };
    else if (await slugTaken(c.var.context.db, parsed.data)) {
      const [suggestion] = await generateUniqueSlugs(c.var.context.db, [parsed.data]);
      answer = { available: false, reason: "taken", suggestion };
    }
    return c.json(answer);
  })
  .post("/", requireAdmin, requireSameOrigin, validate("json", SchoolInputSchema), async (c) => {
    const result = await createSchool(c.var.context.db, actorOf(c), c.req.valid("json"));
    return result.ok ? c.json({ school: result.school }, 201) : refused(c, result);
  })
  .post("/validate-import", requireAdmin, requireSameOrigin, validate("json", ImportBodySchema), async (c) => {
    const { rows, rowNumbers } = c.req.valid("json");
    return c.json(await validateImportRows(c.var.context.db, rows, "validate", rowNumbers));
  })
  .post("/bulk", requireAdmin, requireSameOrigin, validate("json", ImportBodySchema), async (c) => {
    const { rows, rowNumbers } = c.req.valid("json");
    const result = await importSchools(c.var.context.db, actorOf(c), rows, { generateSlugs: false, rowNumbers });
    return result.ok ? c.json({ created: result.created }, 201) : c.json({ error: result.error, rows: result.rows }, result.status);
  })
  .post("/save-generated", requireAdmin, requireSameOrigin, validate("json", ImportBodySchema), async (c) => {
    const { rows, rowNumbers } = c.req.valid("json");
    const result = await importSchools(c.var.context.db, actorOf(c), rows, { generateSlugs: true, rowNumbers });
    return result.ok ? c.json({ created: result.created }, 201) : c.json({ error: result.error, rows: result.rows }, result.status);
  })
  .post("/update-duplicates", requireAdmin, requireSameOrigin, validate("json", ImportBodySchema), async (c) => {
    const { rows, rowNumbers } = c.req.valid("json");
    const result = await updateDuplicateSchools(c.var.context.db, actorOf(c), rows, rowNumbers);
    return result.ok ? c.json({ updated: result.updated }) : c.json({ error: result.error, rows: result.rows }, result.status);
  })
  .post("/logins", requireAdmin, requireSameOrigin, validate("json", LoginRecordSchema), async (c) => {
    const record = await schoolLoginRecord(c.var.context.db, c.req.valid("json").schoolId);
    return record ? c.json(record) : c.json({ error: "School not found" }, 404);
  })
  .post(
    "/logins/:id/increase-login-count",
    requireAdmin,
    requireSameOrigin,
    validate("param", IdParamSchema),
    validate("json", IncreaseLoginCountSchema),
    async (c) => {
      const result = await increaseTeacherLimit(c.var.context.db, actorOf(c), c.req.valid("param").id, c.req.valid("json"));
      return result.ok ? c.json({ teacherLimit: result.teacherLimit }) : refused(c, result);
    },
  )
  .post(
    "/logins/:id/increase-total-login",
    requireAdmin,
    requireSameOrigin,
    validate("param", IdParamSchema),
    validate("json", IncreaseTotalLoginSchema),
    async (c) => {
      const result = await increaseTotalLogins(c.var.context.db, actorOf(c), c.req.valid("param").id, c.req.valid("json").by);
      return result.ok ? c.json({ totalLogins: result.totalLogins }) : refused(c, result);
    },
  )
  .get("/:id", requireAdmin, validate("param", IdParamSchema), async (c) => {
    const school = await findSchoolDetail(c.var.context.db, c.req.valid("param").id);
    return school ? c.json({ school }) : c.json({ error: "School not found" }, 404);
  })
  .get("/:id/books", requireAdmin, validate("param", IdParamSchema), async (c) => {
    const books = await listSchoolBooksForAdmin(c.var.context.db, c.req.valid("param").id);
    return books ? c.json({ books }) : c.json({ error: "School not found" }, 404);
  })
  .put("/:id", requireAdmin, requireSameOrigin, validate("param", IdParamSchema), validate("json", SchoolUpdateSchema), async (c) => {
    const result = await updateSchool(c.var.context.db, c.env, actorOf(c), c.req.valid("param").id, c.req.valid("json"));
    return result.ok ? c.json({ school: result.school }) : refused(c, result);
  })
  // The school's unflushed usage to D1 now (docs/decisions/0024): for a report's "now", and the capacity bench.
  .post("/:id/usage/flush", requireAdmin, requireSameOrigin, validate("param", IdParamSchema), async (c) => {
    const { id } = c.req.valid("param");
    if (!(await findSchoolById(c.var.context.db, id))) return c.json({ error: "School not found" }, 404);
    return c.json({ flushed: await schoolObject(c.env, id).flush(id) });
  })
  .delete("/:id", requireAdmin, requireSameOrigin, validate("param", IdParamSchema), async (c) => {
    const result = await deleteSchool(c.var.context.db, c.env, actorOf(c), c.req.valid("param").id);
    return result.ok ? c.json({ ok: true }) : refused(c, result);
  });
