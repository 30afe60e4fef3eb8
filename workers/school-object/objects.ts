/**
 * The school's Durable Object (docs/decisions/0024), addressed by the school's id, and the
 * flush the reports ask for.
 */
import { dayOf } from "#shared/rules/licence.ts";
import { log } from "../kernel/log.ts";
import type { School } from "./school-object.ts";

/** The school objects' namespace (the Worker's `env`): what every function that reaches a school's hot state takes. */
export type HotState = { SCHOOLS: DurableObjectNamespace<School> };

export function schoolObject(env: HotState, schoolId: number) {
  return env.SCHOOLS.getByName(`school:${schoolId}`);
}

/**
 * Sends the school's unflushed usage to D1 before a report over a range that includes today reads
 * it: a school's own report is up to the minute. A failed flush is logged, not thrown: the report
 * then shows what D1 has (at most one flush interval behind).
 */
export async function flushForReport(env: HotState, schoolId: number, range: { to: string }): Promise<void> {
  if (range.to < dayOf(Date.now())) return;
  try {
    await schoolObject(env, schoolId).flush(schoolId);
  } catch (error) {
    log.error("Usage not flushed for the report", { schoolId, error });
  }
}
