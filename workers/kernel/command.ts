import type { ZodType, z } from "zod";
import { type Actor, adminActor } from "../admins/audit.ts";
import type { AdminSession, TeacherSession } from "../auth/sessions.ts";
import { NOT_SIGNED_IN } from "../auth/signed-out.ts";
import { clientIp, type RequestContext } from "./context.ts";
import { failed, type Outcome } from "./failure.ts";
import { parseInput } from "./validate.ts";

/**
 * A write, decided once (docs/decisions/0027-commands.md): its input schema and what it does. The
 * API route and the page action that perform it are adapters (`runJson` in
 * workers/http/run-command.ts, `runCommand` in app/lib/run-command.server.ts): they hand over the
 * raw input, and `execute` parses it (parseInput: depth, control characters, the schema), takes
 * the actor from the request context and runs the command. A command answers a value or one of
 * the typed failures, which each side maps in one place.
 */
export interface AdminCommand<Schema extends ZodType, Value> {
  input: Schema;
  /** Who may run it: any admin, or only a superadmin (checked here too, whatever the route's guard). */
  role: "admin" | "superadmin";
  run(context: AdminCommandContext, input: z.output<Schema>): Promise<Outcome<Value>>;
}

/** A teacher's write to their own account: run for the signed-in teacher of the request, never another. */
export interface TeacherCommand<Schema extends ZodType, Value> {
  input: Schema;
  role: "teacher";
  run(context: TeacherCommandContext, input: z.output<Schema>): Promise<Outcome<Value>>;
}

/** What a teacher's command runs with: the request's context, the checked session, who it is, the client. */
export type TeacherCommandContext = RequestContext & {
  session: TeacherSession;
  who: { schoolId: number; teacherId: number };
  client: { ip: string; origin: string };
};

export type Command<Schema extends ZodType, Value> = AdminCommand<Schema, Value> | TeacherCommand<Schema, Value>;

export function teacherCommand<Schema extends ZodType, Value>(
  input: Schema,
  run: (context: TeacherCommandContext, input: z.output<Schema>) => Promise<Outcome<Value>>,
): TeacherCommand<Schema, Value> {
  return { input, run, role: "teacher" };
}

/**
 * What an admin command runs with: the request's context, the admin as the audit log names them,
 * and the client (its address for throttles, the origin links in e-mails point to).
 */
export type AdminCommandContext = RequestContext & { actor: Actor; client: { ip: string; origin: string } };

export function adminCommand<Schema extends ZodType, Value>(
  input: Schema,
  run: (context: AdminCommandContext, input: z.output<Schema>) => Promise<Outcome<Value>>,
  role: "admin" | "superadmin" = "admin",
): AdminCommand<Schema, Value> {
  return { input, run, role };
}

/**
 * Runs a command for the request: who may run it checked first (an admin, a superadmin, or the
 * signed-in teacher; a refusal rather than a write no one is named for, should a route's guard be
 * left out), then the input parsed once, then the command with its actor or teacher.
 */
export async function execute<Schema extends ZodType, Value>(
  command: Command<Schema, Value>,
  context: RequestContext,
  raw: unknown,
  request: Request,
): Promise<Outcome<Value>> {
  const client = { ip: clientIp(request), origin: new URL(request.url).origin };
  const { teacher, admin } = context;
  if (command.role === "teacher" && !teacher) return failed({ kind: "refused", error: NOT_SIGNED_IN });
  if (command.role !== "teacher" && !admin) return failed({ kind: "refused", error: "Admin sign-in required" });
  if (command.role === "superadmin" && admin?.admin.role !== "superadmin")
    return failed({ kind: "refused", error: "Superadmin access required" });
  const parsed = parseInput(command.input, raw);
  if (!parsed.ok) return failed({ kind: "invalid", error: parsed.error, ...(parsed.field ? { field: parsed.field } : {}) });
  if (command.role === "teacher") {
    const session = teacher as TeacherSession;
    const who = { schoolId: session.school.id, teacherId: session.teacher.id };
    return command.run({ ...context, session, who, client }, parsed.data);
  }
  return command.run({ ...context, actor: adminActor(admin as AdminSession), client }, parsed.data);
}
