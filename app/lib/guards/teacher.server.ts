import { createContext, redirect } from "react-router";
import type { PublicSchool } from "#shared/rules/public-school.ts";
import { ACCOUNT_DISABLED } from "../../../workers/auth/signed-out.ts";
import { OWN_ACCOUNT_DELETED } from "../../../workers/erasure/erase.ts";
import { appContext } from "../../../workers/kernel/context.ts";
import { REFUSALS, type SignInRefusal } from "../../../workers/sso/flow.ts";
import { PROVIDERS, type ProviderName, providerApps } from "../../../workers/sso/providers.ts";
import { readSignIn } from "../../../workers/sso/settings.ts";
import { redirectTarget } from "../redirect-target.ts";
import { requireSchool } from "./tenant.server.ts";

export interface SignedInTeacher {
  teacher: { id: number; name: string; email: string };
  school: PublicSchool & { id: number };
  basePath: string;
}

/** Set by the school layout's middleware for every page under it. */
export const teacherContext = createContext<SignedInTeacher>();

type Args = Parameters<typeof requireSchool>[0] & { request: Request };

/**
 * The teacher signed in to this school, or a redirect to the school's login page. The request
 * context checked the session once (live, and a teacher of this school: a teacher of another
 * school is not signed in here, whatever their cookie says).
 */
export function requireTeacher(args: Args): SignedInTeacher {
  const { school, basePath } = requireSchool(args);
  const { teacher } = args.context.get(appContext);
  if (!teacher) {
    const back = new URL(args.request.url).pathname.replace(/\.data$/, "");
    throw redirect(`${basePath || "/"}?redirectTo=${encodeURIComponent(back)}`);
  }
  return { teacher: teacher.teacher, school: { ...school, id: teacher.school.id }, basePath };
}

/**
 * Where the login page sends a teacher once signed in: back to the page that sent them here
 * (`?redirectTo=`), but only ever a page of this school, else the dashboard.
 */
export function loginTarget(request: Request, basePath: string): string {
  return redirectTarget(new URL(request.url).searchParams.get("redirectTo"), basePath, `${basePath}/dashboard`);
}

/**
 * What the login page says before anything is typed: that the account was disabled, when this
 * browser's teacher cookie is the session of a teacher an admin disabled (only its owner has it).
 */
export function signedOutNotice(args: Args): string | null {
  return args.context.get(appContext).teacherDisabled ? ACCOUNT_DISABLED : null;
}

/**
 * What a school's login page shows besides the form: the providers the school signs in with
 * (enabled by an admin and set up for this deployment: docs/decisions/0029), and the notice, which
 * is why a provider sign-in was just refused (`?signInError=`) or why the teacher is signed out;
 * and `farewell`, once a teacher deleted their own account (`?account=`, the account page's redirect).
 */
export async function loginPageExtras(args: Args): Promise<{ notice: string | null; providers: ProviderName[]; farewell: string | null }> {
  const { db, env, tenant } = args.context.get(appContext);
  const apps = providerApps(env);
  // No D1 read when the deployment has no provider at all.
  const settings = tenant.school && (apps.google || apps.microsoft) ? await readSignIn(db, tenant.school.id) : null;
  const providers = PROVIDERS.filter((provider) => apps[provider] && settings?.[provider].enabled);
  const code = new URL(args.request.url).searchParams.get("signInError");
  const refused = code && code !== "limit" && Object.hasOwn(REFUSALS, code) ? REFUSALS[code as SignInRefusal] : null;
  const account = new URL(args.request.url).searchParams.get("account") ?? "";
  const farewell = Object.hasOwn(OWN_ACCOUNT_DELETED, account) ? OWN_ACCOUNT_DELETED[account as keyof typeof OWN_ACCOUNT_DELETED] : null;
  return { notice: refused ?? signedOutNotice(args), providers, farewell };
}

/** A teacher already signed in to this school skips the login page. */
export function redirectIfSignedIn(args: Args): void {
  const { tenant, teacher } = args.context.get(appContext);
  if (teacher && tenant.school) throw redirect(loginTarget(args.request, tenant.basePath));
}
