import { Hono } from "hono";
import { MAX_TRACE_BYTES } from "#shared/rules/leak-trace.ts";
import { LEAK_TRACE_ACTION } from "#shared/rules/retention.ts";
import { auditEntry } from "../admins/audit.ts";
import { readLimited } from "../books/uploads.ts";
import { type AdminApiEnv, actorOf, requireRole } from "../http/guards.ts";
import { failureResponse } from "../http/run-command.ts";
import { suspectImage, traceLeak } from "../leaks/trace.ts";

/**
 * POST /api/leaks/trace (admins): the body is a leaked image itself (PNG, JPEG or WebP, at most
 * 20 MB, its type in Content-Type). Answers { matches: [{ teacherId, name, email, school, day,
 * bookId, title, page, confidence }] }, empty when no mark is found. Every trace is audited, found
 * or not (docs/decisions/0025-leak-trace.md); the entries are kept a year (docs/decisions/0045).
 */
export const leaksApi = new Hono<AdminApiEnv>().post("/trace", requireRole("admin"), async (c) => {
  const declared = c.req.header("Content-Length");
  if (declared !== undefined && Number(declared) > MAX_TRACE_BYTES) return c.json({ error: "The image is larger than 20 MB" }, 413);
  const type = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const bytes = await readLimited(c.req.raw.body, MAX_TRACE_BYTES);
  if (bytes === null) return c.json({ error: "The image is larger than 20 MB" }, 413);
  const read = await suspectImage(bytes, type);
  const { db } = c.var.context;
  const actor = actorOf(c);
  if (!read.ok) {
    const refused = read.failure.error;
    await auditEntry(db, actor, { action: LEAK_TRACE_ACTION, entityType: "leak", after: { type, bytes: bytes.length, refused } });
    return failureResponse(c, read.failure);
  }
  const suspect = read.value;
  const result = await traceLeak(c.env, db, suspect);
  await auditEntry(db, actor, {
    action: LEAK_TRACE_ACTION,
    entityType: "leak",
    after: {
      type,
      bytes: bytes.length,
      width: suspect.width,
      height: suspect.height,
      found: result.found,
      matches: result.matches.map(({ teacherId, day, bookId, page, confidence }) => ({ teacherId, day, bookId, page, confidence })),
    },
  });
  return c.json({ matches: result.matches });
});
