import { z } from "zod";
import { teacherCommand } from "../kernel/command.ts";
import { done } from "../kernel/failure.ts";
import {
  AccountUpdateSchema,
  changeTeacherPassword,
  endTeacherSession,
  PasswordChangeSchema,
  signOutEverywhere,
  updateTeacherAccount,
} from "./own-account.ts";

/**
 * A teacher's writes to their own account, each once (docs/decisions/0027-commands.md): the API's
 * /api/teacher/account, /password, /sessions/:id and /sign-out-everywhere and the account page's
 * forms run these, always for the signed-in teacher of the request.
 */

export const updateAccountCommand = teacherCommand(AccountUpdateSchema, async ({ db, env, who }, input) =>
  updateTeacherAccount(db, env, who, input),
);

/** The teacher's other sessions end; this one stays. */
export const changePasswordCommand = teacherCommand(PasswordChangeSchema, async ({ db, env, who, session, client }, input) =>
  changeTeacherPassword(db, env, { ...who, keepTokenHash: session.tokenHash, clientIp: client.ip }, input),
);

/** One session ended by its id (as the sessions list names it); `current` when it was this one. */
export const endSessionCommand = teacherCommand(z.object({ id: z.string().max(200) }), async ({ env, who, session }, { id }) =>
  endTeacherSession(env, who, id, session.tokenHash),
);

export const signOutEverywhereCommand = teacherCommand(z.object({}), async ({ env, who }) => done(await signOutEverywhere(env, who)));
