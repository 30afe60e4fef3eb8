import { Hono } from "hono";
import { z } from "zod";
import { toPublicSchool } from "#shared/rules/public-school.ts";
import { SlugSchema } from "#shared/rules/slug.ts";
import { findSchoolById } from "../auth/sessions.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { parseInput, validate } from "../kernel/validate.ts";
import { schoolObject } from "../school-object/objects.ts";
import {
  createSchoolCommand,
  deleteSchoolCommand,
  importSchoolsCommand,
  increaseTeacherLimitCommand,
  increaseTotalLoginsCommand,
  saveGeneratedSchoolsCommand,
  updateDuplicatesCommand,
  updateSchoolCommand,
  validateImportCommand,
} from "../schools/commands.ts";
import { findSchoolDetail, listSchoolBooksForAdmin } from "../schools/detail.ts";
import { nextSchoolId } from "../schools/editing.ts";
import { SchoolIdSchema } from "../schools/input.ts";
import { ListQuerySchema, listSchools, searchSchools } from "../schools/list.ts";
import { loginHistory, schoolLoginRecord } from "../schools/logins.ts";
import { generateUniqueSlugs, slugTaken } from "../schools/slugs.ts";
import { saveSchoolSignInCommand } from "../sso/commands.ts";
import { providerApps } from "../sso/providers.ts";
import { readSignIn } from "../sso/settings.ts";
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
  .get(
    "/slug/:slug/login-history",
    requireRole("admin"),
    validate("param", SlugParamsSchema),
    validate("query", HistoryQuerySchema),
    async (c) => {
      const { school } = c.var.context.tenant;
      if (!school) return c.json({ error: "School not found" }, 404);
      return c.json(await loginHistory(c.var.context.db, school.id, c.req.valid("query").days));
    },
  )
  // The school's sign-in with Google and Microsoft (docs/decisions/0029), and whether this deployment has each provider.
  .get("/:id/sign-in", requireRole("admin"), async (c) => {
    const id = parseInput(SchoolIdSchema, c.req.param("id"));
    if (!id.ok || !(await findSchoolById(c.var.context.db, id.data))) return c.json({ error: "School not found" }, 404);
    const apps = providerApps(c.env);
    const settings = await readSignIn(c.var.context.db, id.data);
    return c.json({
      google: { enabled: settings.google.enabled, domains: settings.google.domains, available: Boolean(apps.google) },
      microsoft: { ...settings.microsoft, available: Boolean(apps.microsoft) },
    });
  })
  .put(
    "/:id/sign-in",
    requireRole("admin"),
    runJson(saveSchoolSignInCommand, (c, settings) => c.json(settings), { params: ["id"] }),
  )
  .get("/", requireRole("admin"), validate("query", ListQuerySchema), async (c) =>
    c.json(await listSchools(c.var.context.db, c.req.valid("query"))),
  )
  .get("/search", requireRole("admin"), validate("query", SearchQuerySchema), async (c) =>
    c.json({ schools: await searchSchools(c.var.context.db, c.req.valid("query").query) }),
  )
  .get("/next-id", requireRole("admin"), async (c) => c.json({ nextId: await nextSchoolId(c.var.context.db) }))
  // Add School checks the address while the admin types: format and reserved words first.
  .get("/slug-available", requireRole("admin"), validate("query", SlugCheckSchema), async (c) => {
    const parsed = parseInput(SlugSchema, c.req.valid("query").slug);
    let answer: SlugCheck = { available: true };
    if (!parsed.ok) answer = { available: false, reason: parsed.error };
    else if (await slugTaken(c.var.context.db, parsed.data)) {
      const [suggestion] = await generateUniqueSlugs(c.var.context.db, [parsed.data]);
      answer = { available: false, reason: "taken", suggestion };
    }
    return c.json(answer);
  })
  .post(
    "/",
    requireRole("admin"),
    runJson(createSchoolCommand, (c, { school }) => c.json({ school }, 201)),
  )
  .post(
    "/validate-import",
    requireRole("admin"),
    runJson(validateImportCommand, (c, validation) => c.json(validation)),
  )
  .post(
    "/bulk",
    requireRole("admin"),
    runJson(importSchoolsCommand, (c, { created }) => c.json({ created }, 201)),
  )
  .post(
    "/save-generated",
    requireRole("admin"),
    runJson(saveGeneratedSchoolsCommand, (c, { created }) => c.json({ created }, 201)),
  )
  .post(
    "/update-duplicates",
    requireRole("admin"),
    runJson(updateDuplicatesCommand, (c, { updated }) => c.json({ updated })),
  )
  .post("/logins", requireRole("admin"), validate("json", LoginRecordSchema), async (c) => {
    const record = await schoolLoginRecord(c.var.context.db, c.req.valid("json").schoolId);
    return record ? c.json(record) : c.json({ error: "School not found" }, 404);
  })
  .post(
    "/logins/:id/increase-login-count",
    requireRole("admin"),
    runJson(increaseTeacherLimitCommand, (c, { teacherLimit }) => c.json({ teacherLimit }), { params: ["id"] }),
  )
  .post(
    "/logins/:id/increase-total-login",
    requireRole("admin"),
    runJson(increaseTotalLoginsCommand, (c, { totalLogins }) => c.json({ totalLogins }), { params: ["id"] }),
  )
  .get("/:id", requireRole("admin"), validate("param", IdParamSchema), async (c) => {
    const school = await findSchoolDetail(c.var.context.db, c.req.valid("param").id);
    return school ? c.json({ school }) : c.json({ error: "School not found" }, 404);
  })
  .get("/:id/books", requireRole("admin"), validate("param", IdParamSchema), async (c) => {
    const books = await listSchoolBooksForAdmin(c.var.context.db, c.req.valid("param").id);
    return books ? c.json({ books }) : c.json({ error: "School not found" }, 404);
  })
  .put(
    "/:id",
    requireRole("admin"),
    runJson(updateSchoolCommand, (c, { school }) => c.json({ school }), { params: ["id"] }),
  )
  // The school's unflushed usage to D1 now (docs/decisions/0024): for a report's "now", and the capacity bench.
  .post("/:id/usage/flush", requireRole("admin"), validate("param", IdParamSchema), async (c) => {
    const { id } = c.req.valid("param");
    if (!(await findSchoolById(c.var.context.db, id))) return c.json({ error: "School not found" }, 404);
    return c.json({ flushed: await schoolObject(c.env, id).flush(id) });
  })
  .delete(
    "/:id",
    requireRole("admin"),
    runJson(deleteSchoolCommand, (c) => c.json({ ok: true }), { params: ["id"], body: false }),
  );
