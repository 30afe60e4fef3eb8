/**
 * The operator's routes, for backups (docs/decisions/0046), open only to the bearer of the
 * Worker's OPERATOR_SECRET (workers/http/operator-guard.ts; any session, any other token: 404):
 *   GET /api/operator/schools                  { schools: [{ id, slug }] }
 *   GET /api/operator/schools/:id/storage      the school object's storage (SchoolStorageDump)
 *   PUT /api/operator/schools/:id/storage      replaces it with a dump: { schoolId, tables, rows }
 * Not commands (workers/kernel/command.ts): no admin or teacher is the actor, the secret's bearer is.
 */
import { Hono } from "hono";
import { dumpSchoolStorage, listSchools, restoreSchoolStorage } from "../backups/school-storage.ts";
import { requireOperator } from "../http/operator-guard.ts";
import { failureResponse } from "../http/run-command.ts";
import type { AppEnv } from "../kernel/context.ts";
import { readJsonBody } from "../kernel/validate.ts";
import { parseId } from "../validation/schemas.ts";

const NO_STORE = { "Cache-Control": "no-store" } as const;
const NOT_FOUND = { error: "School not found" } as const;

export const operatorApi = new Hono<AppEnv>()
  .use(requireOperator)
  .get("/schools", async (c) => c.json({ schools: await listSchools(c.var.context.db) }, 200, NO_STORE))
  .get("/schools/:id/storage", async (c) => {
    const schoolId = parseId(c.req.param("id"));
    if (!schoolId) return c.json(NOT_FOUND, 404, NO_STORE);
    const dump = await dumpSchoolStorage(c.env, c.var.context.db, schoolId);
    return dump.ok ? c.json(dump.value, 200, NO_STORE) : failureResponse(c, dump.failure, NO_STORE);
  })
  .put("/schools/:id/storage", async (c) => {
    const schoolId = parseId(c.req.param("id"));
    if (!schoolId) return c.json(NOT_FOUND, 404, NO_STORE);
    const body = await readJsonBody(c.req);
    if (!body.ok) return c.json({ error: body.error }, 400, NO_STORE);
    const restored = await restoreSchoolStorage(c.env, c.var.context.db, schoolId, body.value);
    return restored.ok ? c.json(restored.value, 200, NO_STORE) : failureResponse(c, restored.failure, NO_STORE);
  });
