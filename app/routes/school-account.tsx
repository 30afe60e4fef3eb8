import { data, redirect } from "react-router";
import { sessionCookie } from "../../workers/auth/sessions.ts";
import { deleteOwnAccountCommand } from "../../workers/erasure/commands.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { getTeacherAccount, listTeacherSessions } from "../../workers/teachers/own-account.ts";
import {
  changePasswordCommand,
  endSessionCommand,
  signOutEverywhereCommand,
  updateAccountCommand,
} from "../../workers/teachers/own-account-commands.ts";
import { AccountDetails } from "../components/school/account/account-details.tsx";
import { ChangePassword } from "../components/school/account/change-password.tsx";
import { DeleteAccount } from "../components/school/account/delete-account.tsx";
import { DownloadMyData } from "../components/school/account/download-my-data.tsx";
import { SignedInDevices } from "../components/school/account/signed-in-devices.tsx";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/school-account";

export const meta: Route.MetaFunction = () => [{ title: "My account · Lectern" }];

/** The signed-in teacher (the layout's middleware let them in) and this request's session. */
function signedIn(context: Route.LoaderArgs["context"]) {
  const { teacher, school, basePath } = context.get(teacherContext);
  const { db, env, teacher: session } = context.get(appContext);
  const who = { schoolId: school.id, teacherId: teacher.id };
  return { teacherId: teacher.id, who, tokenHash: session?.tokenHash ?? "", basePath, db, env };
}

export async function loader({ context }: Route.LoaderArgs) {
  const { teacherId, who, tokenHash, db, env } = signedIn(context);
  const [account, sessions] = await Promise.all([getTeacherAccount(db, teacherId), listTeacherSessions(env, who, tokenHash)]);
  if (!account) throw data("Your account could not be found.", { status: 404 });
  return { account, sessions, schoolName: context.get(teacherContext).school.schoolName };
}

/**
 * The page's forms, each by its `intent` and each on the same server core as the API:
 * `profile` (name, mobile; PUT /api/teacher/account), `password` (currentPassword, newPassword,
 * confirmPassword; POST /api/teacher/password), `end-session` (sessionId; DELETE
 * /api/teacher/sessions/:id), `sign-out-everywhere` (then the login page) and `delete-account`
 * (confirm; DELETE /api/teacher/account, then the login page, which says the account is gone).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { basePath } = signedIn(context);
  const form = await request.formData().catch(() => new FormData());
  const intent = String(form.get("intent") ?? "");
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const done = (message: string) => ({ intent, message });
  // Off to the login page with the cookie cleared: this browser's session has ended.
  const signedOut = () => redirect(basePath || "/", { headers: { "Set-Cookie": sessionCookie(request, "teacher", null) } });

  if (intent === "profile") {
    const outcome = await runCommand({ context, request }, updateAccountCommand, { name: text("name"), mobile: text("mobile") });
    if (!outcome.ok) return reply(outcome, { intent });
    // A form posted as a page (before hydration) has the layout's loader run in this same request,
    // reading the session resolved before this action: it greets the teacher by the new name.
    context.get(teacherContext).teacher.name = outcome.value.account.name;
    return done(outcome.value.message);
  }
  if (intent === "password") {
    const change = { currentPassword: text("currentPassword"), newPassword: text("newPassword") };
    // The page asks twice; a mismatch is refused before the current password is even checked
    // (once the two fields themselves are valid, so their own messages come first).
    const checked = parseInput(changePasswordCommand.input, change);
    const confirm = text("confirmPassword");
    if (checked.ok && confirm !== undefined && confirm !== checked.data.newPassword)
      return reply(failure("invalid", "Passwords do not match", "confirmPassword"), { intent });
    const outcome = await runCommand({ context, request }, changePasswordCommand, change);
    return reply(outcome, { intent }, ({ message }) => done(message));
  }
  if (intent === "end-session") {
    const outcome = await runCommand({ context, request }, endSessionCommand, { id: text("sessionId") ?? "" });
    if (!outcome.ok) return reply(outcome, { intent });
    if (outcome.value.current) throw signedOut();
    return done(outcome.value.message);
  }
  if (intent === "sign-out-everywhere") {
    const outcome = await runCommand({ context, request }, signOutEverywhereCommand, {});
    if (!outcome.ok) return reply(outcome, { intent });
    throw signedOut();
  }
  if (intent === "delete-account") {
    const outcome = await runCommand({ context, request }, deleteOwnAccountCommand, { confirm: text("confirm") ?? "" });
    if (!outcome.ok) return reply(outcome, { intent });
    const cleared = { headers: { "Set-Cookie": sessionCookie(request, "teacher", null) } };
    throw redirect(`${basePath || "/"}?account=${outcome.value.signedOutEverywhere ? "deleted" : "deleted-elsewhere-later"}`, cleared);
  }
  return reply(failure("invalid", "Please choose what to do on this page."), { intent });
}

/** A zod error as the sentence it carries (no field names: the form shows which field is which). */
export default function SchoolAccount({ loaderData }: Route.ComponentProps) {
  const { account, sessions, schoolName } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">My account</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">Your details, your password, and the devices you are signed in on.</p>
      </div>
      <AccountDetails account={account} />
      <ChangePassword email={account.email} />
      <SignedInDevices sessions={sessions} />
      <DownloadMyData />
      <DeleteAccount email={account.email} schoolName={schoolName} />
    </div>
  );
}
