import { Hono } from "hono";
import { AdminCreateSchema, AdminIdParamSchema, AdminUpdateSchema, AuditPageSchema } from "../admins/input.ts";
import { auditPage, createAdmin, globalFigures, listAdmins, updateAdmin } from "../admins/superadmin.ts";
import { type AdminApiEnv, actorOf, requireSuperadmin } from "../http/guards.ts";
import { requireSameOrigin } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";

/** /api/superadmin: accounts, audit log and global figures; superadmins only. */
export const superadminApi = new Hono<AdminApiEnv>()
  .use(requireSameOrigin, requireSuperadmin)
  .get("/admins", async (c) => c.json({ admins: await listAdmins(c.var.context.db) }))
  .post("/admins", validate("json", AdminCreateSchema), async (c) => {
    const result = await createAdmin(c.var.context.db, actorOf(c), c.req.valid("json"));
    return result.ok ? c.json({ admin: result.value }, 201) : c.json({ error: result.error }, result.status);
  })
  .put("/admins/:id", validate("param", AdminIdParamSchema), validate("json", AdminUpdateSchema), async (c) => {
    const result = await updateAdmin(c.var.context.db, actorOf(c), c.req.valid("param").id, c.req.valid("json"));
    return result.ok ? c.json({ admin: result.value }) : c.json({ error: result.error }, result.status);
  })
  .get("/audit", validate("query", AuditPageSchema), async (c) => {
    const { page, pageSize } = c.req.valid("query");
    return c.json(await auditPage(c.var.context.db, page, pageSize));
  })
  .get("/stats", async (c) => c.json(await globalFigures(c.var.context.db)));
