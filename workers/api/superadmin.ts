import { Hono } from "hono";
import { z } from "zod";
import { auditPage, createAdmin, globalFigures, listAdmins, updateAdmin } from "../admins/superadmin.ts";
import { getDb } from "../db/client.ts";
import { requireSameOrigin } from "../http/request-guards.ts";
import { validate } from "../http/validate.ts";
import { EmailSchema, PasswordSchema, PersonNameSchema } from "../validation/schemas.ts";
import { type AdminEnv, requireAdminApi, requireSuperadminApi } from "./admin-session.ts";

const CreateSchema = z.object({
  email: EmailSchema,
  name: PersonNameSchema,
  password: PasswordSchema,
  role: z.enum(["admin", "superadmin"]).default("admin"),
});
const UpdateSchema = z.object({ disabled: z.boolean().optional(), password: PasswordSchema.optional() });
const IdSchema = z.object({ id: z.coerce.number().int().positive() });
const PageSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

const actorOf = (c: { get: (key: "adminSession") => { admin: { id: number; email: string } } }) => c.get("adminSession").admin;

/** /api/superadmin: accounts, audit log and global figures; superadmins only. */
export const superadminApi = new Hono<AdminEnv>()
  .use(requireSameOrigin, requireAdminApi, requireSuperadminApi)
  .get("/admins", async (c) => c.json({ admins: await listAdmins(getDb(c.env.DB)) }))
  .post("/admins", validate("json", CreateSchema), async (c) => {
    const result = await createAdmin(getDb(c.env.DB), actorOf(c), c.req.valid("json"));
    return result.ok ? c.json({ admin: result.value }, 201) : c.json({ error: result.error }, result.status);
  })
  .put("/admins/:id", validate("param", IdSchema), validate("json", UpdateSchema), async (c) => {
    const result = await updateAdmin(getDb(c.env.DB), actorOf(c), c.req.valid("param").id, c.req.valid("json"));
    return result.ok ? c.json({ admin: result.value }) : c.json({ error: result.error }, result.status);
  })
  .get("/audit", validate("query", PageSchema), async (c) => {
    const { page, pageSize } = c.req.valid("query");
    return c.json(await auditPage(getDb(c.env.DB), page, pageSize));
  })
  .get("/stats", async (c) => c.json(await globalFigures(getDb(c.env.DB))));
