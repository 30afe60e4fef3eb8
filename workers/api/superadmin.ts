import { Hono } from "hono";
import { z } from "zod";
import { auditPage, createAdmin, globalFigures, listAdmins, updateAdmin } from "../admins/superadmin.ts";
import { type AdminApiEnv, actorOf, requireSuperadmin } from "../http/guards.ts";
import { requireSameOrigin } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";
import { EmailSchema, IdTextSchema, PasswordSchema, PersonNameSchema } from "../validation/schemas.ts";

const CreateSchema = z.object({
  email: EmailSchema,
  name: PersonNameSchema,
  password: PasswordSchema,
  role: z.enum(["admin", "superadmin"]).default("admin"),
});
const UpdateSchema = z.object({ disabled: z.boolean().optional(), password: PasswordSchema.optional() });
const IdParamSchema = z.object({ id: IdTextSchema("Unknown admin") });
const PageSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

/** /api/superadmin: accounts, audit log and global figures; superadmins only. */
export const superadminApi = new Hono<AdminApiEnv>()
  .use(requireSameOrigin, requireSuperadmin)
  .get("/admins", async (c) => c.json({ admins: await listAdmins(c.var.context.db) }))
  .post("/admins", validate("json", CreateSchema), async (c) => {
    const result = await createAdmin(c.var.context.db, actorOf(c), c.req.valid("json"));
    return result.ok ? c.json({ admin: result.value }, 201) : c.json({ error: result.error }, result.status);
  })
  .put("/admins/:id", validate("param", IdParamSchema), validate("json", UpdateSchema), async (c) => {
    const result = await updateAdmin(c.var.context.db, actorOf(c), c.req.valid("param").id, c.req.valid("json"));
    return result.ok ? c.json({ admin: result.value }) : c.json({ error: result.error }, result.status);
  })
  .get("/audit", validate("query", PageSchema), async (c) => {
    const { page, pageSize } = c.req.valid("query");
    return c.json(await auditPage(c.var.context.db, page, pageSize));
  })
  .get("/stats", async (c) => c.json(await globalFigures(c.var.context.db)));
