import { Hono } from "hono";
import { auditCsvFileName, auditCsvStream } from "../admins/audit-csv.ts";
import { auditPage } from "../admins/audit-log.ts";
import { AdminCreateSchema, AdminIdParamSchema, AdminUpdateSchema, AuditQuerySchema } from "../admins/input.ts";
import { createAdmin, deleteAdmin, globalFigures, listAdmins, updateAdmin } from "../admins/superadmin.ts";
import { type AdminApiEnv, actorOf, requireSuperadmin } from "../http/guards.ts";
import { requireSameOrigin } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";
import { csvResponse } from "../reports/csv.ts";

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
  .delete("/admins/:id", validate("param", AdminIdParamSchema), async (c) => {
    const result = await deleteAdmin(c.var.context.db, actorOf(c), c.req.valid("param").id);
    return result.ok ? c.json({ deleted: result.value }) : c.json({ error: result.error }, result.status);
  })
  .get("/audit", validate("query", AuditQuerySchema), async (c) => {
    const { page, pageSize, ...filter } = c.req.valid("query");
    return c.json(await auditPage(c.var.context.db, filter, page, pageSize));
  })
  // The filtered log as a file (?who=&what=&from=&to=, as /audit takes them; no paging).
  .get("/audit.csv", validate("query", AuditQuerySchema), (c) => {
    const { page: _page, pageSize: _size, ...filter } = c.req.valid("query");
    return csvResponse(auditCsvStream(c.var.context.db, filter), auditCsvFileName(filter));
  })
  .get("/stats", async (c) => c.json(await globalFigures(c.var.context.db)));
