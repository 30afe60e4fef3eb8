import type { Context } from "hono";
import type { Db } from "../db/client.ts";
import type { AdminApiEnv } from "../http/guards.ts";
import type { JsonAnswer } from "../http/json-answer.ts";
import { parseInput } from "../kernel/validate.ts";
import type { HotState } from "../school-object/objects.ts";
import { SCHOOL_NOT_FOUND } from "../teachers/management.ts";
import { IdTextSchema } from "../validation/schemas.ts";

const IdText = IdTextSchema();

/**
 * An admin's GET of one school's rows (its teachers, who holds its seats): `{ [key]: rows }` for
 * the school the path's `:id` names; a malformed id, or a school that does not exist, is 404.
 */
export function schoolList<Key extends string, Row>(
  key: Key,
  list: (db: Db, hot: HotState, schoolId: number) => Promise<Row[] | null>,
): (c: Context<AdminApiEnv>) => Promise<JsonAnswer<{ [K in Key]: Row[] }> | JsonAnswer<{ error: string }, 404>> {
  return async (c: Context<AdminApiEnv>) => {
    const schoolId = parseInput(IdText, c.req.param("id"));
    const rows = schoolId.ok ? await list(c.var.context.db, c.env, schoolId.data) : null;
    return rows ? c.json({ [key]: rows } as { [K in Key]: Row[] }) : c.json({ error: SCHOOL_NOT_FOUND }, 404);
  };
}
