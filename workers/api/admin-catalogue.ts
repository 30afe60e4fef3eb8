/**
 * A catalogue at once (docs/decisions/0040), for the console's import page and for scripts:
 *   POST /api/books/bulk/validate   { rows, rowNumbers? }: each row's problems, nothing saved
 *   POST /api/books/bulk            { rows, rowNumbers? }: every row's book or none (201
 *                                   { importId, books: [{ row, bookId, title, pdfFile, coverFile }] };
 *                                   400 or, when only ISBNs already in the catalogue stand in the way, 409,
 *                                   with `rows` naming each row's problems)
 *   GET  /api/books/bulk/:importId  each row's book, files and state (waiting, uploading, preparing,
 *                                   ready, refused, removed) with its pages
 * The files then go through each book's own upload routes (admin-books.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { checkCatalogueCommand, importCatalogueCommand } from "../books/catalogue.ts";
import { catalogueReport } from "../books/catalogue-report.ts";
import { type AdminApiEnv, requireRole } from "../http/guards.ts";
import { runJson } from "../http/run-command.ts";
import { paramOrNull } from "../validation/schemas.ts";

const ImportIdSchema = z.string().regex(/^[0-9a-f]{32}$/);

export const adminCatalogueApi = new Hono<AdminApiEnv>()
  .post(
    "/bulk/validate",
    requireRole("admin"),
    runJson(checkCatalogueCommand, (c, check) => c.json(check)),
  )
  .post(
    "/bulk",
    requireRole("admin"),
    runJson(importCatalogueCommand, (c, created) => c.json(created, 201)),
  )
  .get("/bulk/:importId", requireRole("admin"), async (c) => {
    const importId = paramOrNull(ImportIdSchema, c.req.param("importId"));
    const report = importId ? await catalogueReport(c.var.context.db, importId) : null;
    if (!report) return c.json({ error: "Import not found" }, 404);
    return c.json(report);
  });
