import { Hono } from "hono";
import { requireRole, type TeacherApiEnv } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { starBookCommand, unstarBookCommand } from "../reading/commands.ts";

const PATH = { params: ["id"], body: false } as const;

/**
 * A teacher's 'My books', mounted at /api/books: PUT stars a book of their school, DELETE unstars
 * it (workers/reading/commands.ts). Both are idempotent (a repeated call answers the same), both
 * answer 404 for a book of another school exactly as for a book that does not exist.
 */
export const favouritesApi = new Hono<TeacherApiEnv>()
  .use("/:id/favourite", requireRole("teacher"))
  .put(
    "/:id/favourite",
    runJson(starBookCommand, (c, value) => c.json(value), PATH),
  )
  .delete(
    "/:id/favourite",
    runJson(unstarBookCommand, (c, value) => c.json(value), PATH),
  );
