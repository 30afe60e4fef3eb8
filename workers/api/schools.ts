import { Hono } from "hono";
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { findSchoolBySlug, toPublicSchool } from "../schools.ts";
import { validate } from "./validation.ts";

const SlugParamSchema = z.object({ slug: z.string().trim().toLowerCase().min(1).max(63) });

export const schoolsApi = new Hono<{ Bindings: Env }>().get("/slug/:slug", validate("param", SlugParamSchema), async (c) => {
  const { slug } = c.req.valid("param");
  const school = await findSchoolBySlug(getDb(c.env.DB), slug);
  if (!school) return c.json({ error: "School not found" }, 404);
  c.header("Cache-Control", "public, max-age=60");
  return c.json(toPublicSchool(school));
});
