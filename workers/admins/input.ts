import { z } from "zod";
import { EmailSchema, IdTextSchema, PasswordSchema, PersonNameSchema } from "../validation/schemas.ts";

// What the superadmin's account and audit-log calls take, for /api/superadmin and the dashboard's forms.

export const AdminCreateSchema = z.object({
  email: EmailSchema,
  name: PersonNameSchema,
  password: PasswordSchema,
  role: z.enum(["admin", "superadmin"]).default("admin"),
});

export const AdminUpdateSchema = z.object({ disabled: z.boolean().optional(), password: PasswordSchema.optional() });

export const AdminIdParamSchema = z.object({ id: IdTextSchema("Unknown admin") });

export const AuditPageSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
