/**
 * Redeeming a bookstore code, as commands (docs/decisions/0053): an admin names the school; a
 * school's coordinator redeems for their own school only (the session's: a `schoolId` naming
 * another is refused, never followed). POST /api/codes/redeem runs one or the other
 * (workers/api/code-redeem.ts); the admin's school page and My school run them from their actions.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { CODE_FORMAT_ERROR } from "#shared/rules/code-format.ts";
import { schools } from "../db/schema.ts";
import { adminCommand, teacherCommand } from "../kernel/command.ts";
import { failed, failure } from "../kernel/failure.ts";
import { coordinatorActor, findCoordinator, NOT_COORDINATOR } from "../teachers/coordinators.ts";
import { idFrom } from "../validation/schemas.ts";
import { redeemCode } from "./redeem.ts";

export const SAY_WHICH_SCHOOL = "Say which school the code is for";
export const OWN_SCHOOL_ONLY = "You can redeem codes only for your own school";
const SCHOOL_NOT_FOUND = "School not found";

/** The code as typed (normalizeCode reads it: case, spaces and dashes are forgiven). */
const CodeSchema = z.string({ error: CODE_FORMAT_ERROR }).max(100, CODE_FORMAT_ERROR);
/** A school's id from JSON (a number) or a form (digits); empty or null is none. */
const SchoolRefSchema = z.union([z.number(), z.string()]).nullish();

/** The school an id names, read strictly: undefined when none is given, null when it is not an id. */
function schoolIdOf(raw: number | string | null | undefined): number | null | undefined {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return undefined;
  return idFrom(typeof raw === "number" ? String(raw) : raw.trim());
}

/** `POST /api/codes/redeem { code, schoolId }` as an admin, and the admin's school page: for the school named. */
export const redeemForSchoolCommand = adminCommand(
  z.object({ code: CodeSchema, schoolId: SchoolRefSchema }),
  async ({ db, env, actor, client }, { code, schoolId }) => {
    const id = schoolIdOf(schoolId);
    if (id === undefined) return failure("invalid", SAY_WHICH_SCHOOL, "schoolId");
    const [school] = id === null ? [] : await db.select({ id: schools.id, name: schools.name }).from(schools).where(eq(schools.id, id));
    if (!school) return failure("not-found", SCHOOL_NOT_FOUND, "schoolId");
    const person = { kind: "admin", id: actor.id } as const;
    return redeemCode(db, env, { person, actor, ip: client.ip, school, own: false }, code);
  },
);

/**
 * `POST /api/codes/redeem { code }` as a school's coordinator, and My school: for the session's
 * school. A plain teacher is refused before the code is read; a `schoolId` that is not theirs too.
 */
export const redeemForOwnSchoolCommand = teacherCommand(
  z.object({ code: CodeSchema, schoolId: SchoolRefSchema }),
  async ({ db, env, session, who, client }, { code, schoolId }) => {
    const coordinator = await findCoordinator(db, who);
    if (!coordinator) return failed({ kind: "refused", error: NOT_COORDINATOR });
    const named = schoolIdOf(schoolId);
    if (named !== undefined && named !== who.schoolId) return failed({ kind: "refused", error: OWN_SCHOOL_ONLY });
    const school = { id: session.school.id, name: session.school.name };
    const person = { kind: "teacher", id: who.teacherId } as const;
    return redeemCode(db, env, { person, actor: coordinatorActor(coordinator.email), ip: client.ip, school, own: true }, code);
  },
);
