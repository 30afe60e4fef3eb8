/** The admins' write to a school's provider sign-in (docs/decisions/0027: one command, run by the API and the school's page). */
import { z } from "zod";
import { adminCommand } from "../kernel/command.ts";
import { done, failed } from "../kernel/failure.ts";
import { idFrom } from "../validation/schemas.ts";
import { PROVIDER_LABELS, PROVIDERS, providerApps } from "./providers.ts";
import { readSignIn, SignInSettingsSchema, saveSignIn } from "./settings.ts";

export const saveSchoolSignInCommand = adminCommand(
  z.object({ id: z.unknown() }).and(SignInSettingsSchema),
  async ({ db, env, actor }, { id, ...settings }) => {
    const schoolId = idFrom(id);
    if (!schoolId) return failed({ kind: "not-found", error: "School not found" });
    // A provider the publisher has not set up cannot be turned on (README: "Sign-in with Google and Microsoft").
    const apps = providerApps(env);
    const missing = PROVIDERS.find((provider) => settings[provider].enabled && !apps[provider]);
    if (missing)
      return failed({
        kind: "invalid",
        field: `${missing}.enabled`,
        error: `Sign-in with ${PROVIDER_LABELS[missing]} is not set up for this deployment: its client id and secret are missing (see the README).`,
      });
    if (!(await saveSignIn(db, actor, schoolId, settings))) return failed({ kind: "not-found", error: "School not found" });
    return done(await readSignIn(db, schoolId));
  },
);
