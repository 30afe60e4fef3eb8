import { beforeAll } from "vitest";
import { dayOf } from "#shared/rules/licence.ts";
import { signedInAdmin } from "./helpers.ts";

/** Today as the licences and the usage tables write a day (YYYY-MM-DD, UTC). */
export const today = () => dayOf(Date.now());

/**
 * An admin signed in once for the whole file (a beforeAll of the file that calls this); the object
 * it answers is filled before the first test runs, so tests read `admin.cookie` as usual.
 */
export function adminForTheFile(): Awaited<ReturnType<typeof signedInAdmin>> {
  const admin = {} as Awaited<ReturnType<typeof signedInAdmin>>;
  beforeAll(async () => {
    Object.assign(admin, await signedInAdmin());
  });
  return admin;
}
