import { Hono } from "hono";
import { auditCsvFileName, auditCsvStream } from "../admins/audit-csv.ts";
import { auditPage } from "../admins/audit-log.ts";
import { createAdminCommand, deleteAdminCommand, updateAdminCommand } from "../admins/commands.ts";
import { AuditQuerySchema } from "../admins/input.ts";
import { globalFigures, listAdmins } from "../admins/superadmin.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { validate } from "../kernel/validate.ts";
import { csvResponse } from "../reports/csv.ts";

/** /api/superadmin: accounts, audit log and global figures; superadmins only. */
export const superadminApi = new Hono<AdminApiEnv>()
  .use(requireRole("superadmin"))
  .get("/admins", async (c) => c.json({ admins: await listAdmins(c.var.context.db) }))
  .post(
    "/admins",
    runJson(createAdminCommand, (c, admin) => c.json({ admin }, 201)),
  )
  .put(
    "/admins/:id",
    runJson(updateAdminCommand, (c, admin) => c.json({ admin }), { params: ["id"] }),
  )
  .delete(
    "/admins/:id",
    runJson(deleteAdminCommand, (c, deleted) => c.json({ deleted }), { params: ["id"], body: false }),
  )
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
