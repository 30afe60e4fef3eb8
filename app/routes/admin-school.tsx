import { data, Link } from "react-router";
import { OFFLINE_BOOKS_PER_TEACHER_MAX } from "#shared/rules/offline.ts";
import { requestSchoolExportCommand } from "../../workers/exports/commands.ts";
import { schoolExportsForPage } from "../../workers/exports/store.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseInput } from "../../workers/kernel/validate.ts";
import { freeSeatCommand, schoolSeatHolders } from "../../workers/licences/seat-holders.ts";
import { licenceSeatUse } from "../../workers/licences/seat-use.ts";
import { schoolOfflineLoans } from "../../workers/loans/staff.ts";
import { schoolReport } from "../../workers/reports/detail.ts";
import { lastDays, rangeChoice } from "../../workers/reports/range.ts";
import { flushForReport } from "../../workers/school-object/objects.ts";
import { increaseTeacherLimitCommand, updateSchoolCommand } from "../../workers/schools/commands.ts";
import { findSchoolDetail, listSchoolBooksForAdmin } from "../../workers/schools/detail.ts";
import { SchoolIdSchema } from "../../workers/schools/input.ts";
import { loginHistory } from "../../workers/schools/logins.ts";
import { saveSchoolSignInCommand } from "../../workers/sso/commands.ts";
import { providerApps } from "../../workers/sso/providers.ts";
import { readSignIn } from "../../workers/sso/settings.ts";
import {
  deleteTeacherCommand,
  disableTeacherCommand,
  enableTeacherCommand,
  endTeacherSessionsCommand,
  sendTeacherResetCommand,
} from "../../workers/teachers/commands.ts";
import { makeCoordinatorCommand, removeCoordinatorCommand } from "../../workers/teachers/coordinators.ts";
import { listSchoolTeachers } from "../../workers/teachers/management.ts";
import { AdminPageHeader, cardClasses, TableState } from "../components/admin/admin-page.tsx";
import { LoginsChart } from "../components/admin/logins-chart.tsx";
import { ERASE_INTENT, ErasePersonalData } from "../components/admin/school/erase-personal-data.tsx";
import { adminDownloadHref, readAdminExports } from "../components/admin/school/export-calls.ts";
import { formNumber } from "../components/admin/school/form-values.ts";
import { NumberSetting } from "../components/admin/school/number-setting.tsx";
import { LOAN_RETURN_INTENT, OFFLINE_BOOKS_INTENT, OfflineLoans } from "../components/admin/school/offline-loans.tsx";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { EXPORT_INTENT, SchoolExport } from "../components/admin/school/school-export.tsx";
import { SchoolTeachers } from "../components/admin/school/school-teachers.tsx";
import { SEAT_FREE_INTENT, SeatHolders } from "../components/admin/school/seat-holders.tsx";
import { SignInSettings } from "../components/admin/school/sign-in-settings.tsx";
import { SchoolUsage } from "../components/admin/usage/school-usage.tsx";
import { SeatUse } from "../components/admin/usage/seat-use.tsx";
import { REDEEM_INTENT, RedeemCode } from "../components/school/redeem-code.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { eraseSchoolAction } from "../lib/erase-school.server.ts";
import { offlineBooksAction, returnLoanAction } from "../lib/offline-loans.server.ts";
import { redeemForSchoolAction } from "../lib/redeem-code.server.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-school";

export const meta: Route.MetaFunction = () => [{ title: "School · Lectern Admin" }];

const NOT_FOUND = "School not found";
const HISTORY_DAYS = 90;

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const id = parseInput(SchoolIdSchema, params.id);
  if (!id.ok) throw data(NOT_FOUND, { status: 404 });
  const { db, env } = context.get(appContext);
  const days = rangeChoice(new URL(request.url).searchParams.get("range"));
  const range = lastDays(days);
  const apps = providerApps(env);
  // The school's data exports (docs/decisions/0044): one R2 listing, beside the D1 reads.
  const exports = schoolExportsForPage(env.BOOKS, id.data);
  const [school, books, history, teachers, [usage, seats], signIn, holders, offline] = await Promise.all([
    findSchoolDetail(db, id.data),
    listSchoolBooksForAdmin(db, id.data),
    loginHistory(db, id.data, HISTORY_DAYS),
    listSchoolTeachers(db, env, id.data),
    // The school's usage up to now: its object flushes first.
    flushForReport(env, id.data, range).then(() =>
      Promise.all([schoolReport(db, id.data, range), licenceSeatUse(db, { schoolId: id.data }, range)]),
    ),
    readSignIn(db, id.data),
    schoolSeatHolders(db, env, id.data),
    schoolOfflineLoans(db, env, id.data),
  ]);
  if (!school) throw data(NOT_FOUND, { status: 404 });
  // The teachers come from listSchoolTeachers (with their state and sessions), once.
  const { teachers: _listed, ...details } = school;
  return {
    school: details,
    teachers: teachers ?? [],
    exports: await exports,
    books: (books ?? []).map(({ id, title, gradeLevel, subject }) => ({ id, title, gradeLevel, subject })),
    history: history.days,
    usage: { days, report: usage },
    seats: { range, uses: seats, holders: holders ?? [] },
    offline: offline ?? [],
    signIn: {
      google: { enabled: signIn.google.enabled, domains: signIn.google.domains, available: Boolean(apps.google) },
      microsoft: { ...signIn.microsoft, available: Boolean(apps.microsoft) },
    },
  };
}

/**
 * The page's two settings: `teacher-limit` (as POST .../increase-login-count) and `session-limit`
 * (as PUT /api/schools/:id); and the teachers' actions, `teacher-disable`, `teacher-enable`,
 * `teacher-sign-out`, `teacher-send-reset` and `teacher-delete` with `teacherId` (as
 * /api/schools/:id/teachers/:teacherId/...); and `seat-free` with `bookId` and `teacherId` (as
 * DELETE /api/schools/:id/seats/:bookId/:teacherId); and `erase-personal-data` with `confirm`, the
 * school's slug (as POST /api/schools/:id/erase-personal-data: docs/decisions/0045).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const intent = String(form.get("intent") ?? "");
  const id = parseInput(SchoolIdSchema, params.id);
  if (!id.ok) return reply(failure("not-found", NOT_FOUND), { intent });

  if (intent === "teacher-limit") {
    const outcome = await runCommand({ context, request }, increaseTeacherLimitCommand, {
      id: params.id,
      limit: formNumber(form.get("limit")),
    });
    return reply(outcome, { intent }, ({ teacherLimit }) => ({ intent, message: `Teacher limit is now ${teacherLimit}.` }));
  }
  if (intent === "session-limit") {
    const sessionLimit = formNumber(form.get("sessionLimit"));
    const outcome = await runCommand({ context, request }, updateSchoolCommand, { id: params.id, sessionLimit });
    return reply(outcome, { intent }, () => ({
      intent,
      message: `Each teacher may now be signed in on ${sessionLimit} device(s) at once.`,
    }));
  }
  if (intent === "sign-in") {
    const domains = (name: string) =>
      String(form.get(name) ?? "")
        .split(/[\s,;]+/)
        .filter(Boolean);
    const outcome = await runCommand({ context, request }, saveSchoolSignInCommand, {
      id: params.id,
      google: { enabled: form.get("google.enabled") === "on", domains: domains("google.domains") },
      microsoft: {
        enabled: form.get("microsoft.enabled") === "on",
        domains: domains("microsoft.domains"),
        tenantId: String(form.get("microsoft.tenantId") ?? "").trim() || null,
      },
    });
    return reply(outcome, { intent }, () => ({ intent, message: "Sign-in saved." }));
  }
  if (intent === SEAT_FREE_INTENT) {
    const fields = { id: params.id, bookId: form.get("bookId") ?? "", teacherId: form.get("teacherId") ?? "" };
    const outcome = await runCommand({ context, request }, freeSeatCommand, fields);
    return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
  }
  if (intent === ERASE_INTENT) return eraseSchoolAction({ context, request }, id.data, form.get("confirm"));
  if (intent === REDEEM_INTENT) return redeemForSchoolAction({ context, request }, intent, params.id, form);
  // "Return now" and the offline books per teacher (docs/decisions/0050).
  if (intent === LOAN_RETURN_INTENT) return returnLoanAction({ context, request }, intent, params.id, form);
  if (intent === OFFLINE_BOOKS_INTENT) return offlineBooksAction({ context, request }, intent, params.id, form);
  if (intent === EXPORT_INTENT) {
    const outcome = await runCommand({ context, request }, requestSchoolExportCommand, { id: params.id });
    return reply(outcome, { intent }, () => ({ intent, message: "The export is being prepared." }));
  }
  if (TEACHER_INTENTS.has(intent)) {
    const command = TEACHER_COMMANDS[intent as keyof typeof TEACHER_COMMANDS];
    const outcome = await runCommand({ context, request }, command, { id: params.id, teacherId: form.get("teacherId") ?? "" });
    return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
  }
  return reply(failure("invalid", "Unknown action"), { intent });
}

/** The teachers table's intents, each running the command its API route runs. */
const TEACHER_COMMANDS = {
  "teacher-disable": disableTeacherCommand,
  "teacher-enable": enableTeacherCommand,
  "teacher-sign-out": endTeacherSessionsCommand,
  "teacher-send-reset": sendTeacherResetCommand,
  "teacher-delete": deleteTeacherCommand,
  "teacher-coordinator": makeCoordinatorCommand,
  "teacher-uncoordinator": removeCoordinatorCommand,
};
const TEACHER_INTENTS = new Set(Object.keys(TEACHER_COMMANDS));

export default function AdminSchool({ loaderData }: Route.ComponentProps) {
  const { school: s, books, history, teachers, usage, seats, offline, signIn, exports } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={s.schoolName}
        description={[s.address1, s.address2, s.address3, s.city, s.state, s.zipCode].filter(Boolean).join(", ")}
        actions={
          <>
            <ButtonLink to={`/admin/assign-books/${s.id}`} variant="secondary">
              Assign books
            </ButtonLink>
            <ButtonLink to={`/admin/licences?schoolId=${s.id}`} variant="secondary">
              Licences
            </ButtonLink>
            <ButtonLink to={`/schools/${s.slug}`} variant="secondary" reloadDocument>
              Open portal
            </ButtonLink>
          </>
        }
      />
      <div className="grid gap-4 sm:grid-cols-4">
        {[
          ["Portal", `/${s.slug}`],
          ["Teachers", `${s.teacherCount} of ${s.teacherLimit}`],
          ["Books", String(s.bookCount)],
          ["Total logins", String(s.totalLogins)],
        ].map(([label, value]) => (
          <div key={label} className={cardClasses}>
            <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
            <p className="mt-1 text-lg font-semibold">{value}</p>
          </div>
        ))}
      </div>
      <SchoolUsage schoolId={s.id} days={usage.days} report={usage.report} />
      <SeatUse uses={seats.uses} range={seats.range} by="book" scope={{ schoolId: s.id }} />
      <SeatHolders seats={seats.holders} />
      <OfflineLoans loans={offline} />
      <section className={cardClasses} aria-labelledby="logins-title">
        <h2 id="logins-title" className="mb-3 font-semibold">
          Logins per day, last {HISTORY_DAYS} days
        </h2>
        <LoginsChart days={history} />
      </section>
      {/* Raise (or set) how many teachers may register; never below the teachers already there. */}
      <NumberSetting
        // A new school (the search box leads from one to another) starts from its own values.
        key={`teacher-limit-${s.id}`}
        id="teacher-limit"
        intent="teacher-limit"
        name="limit"
        title="Teacher limit"
        label="Teachers allowed"
        initial={s.teacherLimit}
        min={s.teacherCount}
        max={10000}
        saveLabel="Save limit"
        check={(n) => (n < s.teacherCount ? `The limit cannot be below the ${s.teacherCount} teachers already registered.` : null)}
      />
      {/* How many devices one teacher may stay signed in on; a sign-in past it ends the oldest session. */}
      <NumberSetting
        key={`session-limit-${s.id}`}
        id="session-limit"
        intent="session-limit"
        name="sessionLimit"
        title="Sign-ins per teacher"
        description="A teacher who signs in on one more device than this is signed out of their oldest sign-in."
        label="Devices at once"
        initial={s.sessionLimit}
        min={1}
        max={20}
        saveLabel="Save"
      />
      <NumberSetting
        key={`offline-books-${s.id}`}
        id="offline-books"
        intent={OFFLINE_BOOKS_INTENT}
        name="offlineBooksPerTeacher"
        title="Offline reading"
        description="How many books one teacher may keep for offline reading at once; 0 turns offline reading off for the school."
        label="Offline books per teacher"
        initial={s.offlineBooksPerTeacher}
        min={0}
        max={OFFLINE_BOOKS_PER_TEACHER_MAX}
        saveLabel="Save"
      />
      <SignInSettings key={`sign-in-${s.id}`} settings={signIn} />
      <SchoolTeachers teachers={teachers} />
      <RedeemCode key={`redeem-${s.id}`} who="admin" next={{ to: `/admin/licences?schoolId=${s.id}`, label: "The school's licences" }} />
      <SchoolExport key={`export-${s.id}`} exports={exports} load={readAdminExports(s.id)} downloadHref={adminDownloadHref(s.id)} />
      <section className={cardClasses} aria-labelledby="books-title">
        <h2 id="books-title" className="mb-3 font-semibold">
          Assigned books
        </h2>
        <TableState loading={false} error={null} empty={books.length === 0} />
        <ul className="grid gap-2 sm:grid-cols-2">
          {books.map((b) => (
            <li key={b.id}>
              {/* Underlined: in a line of text, colour alone would not mark it as a link (WCAG 1.4.1). */}
              <Link to={`/admin/book/${b.id}`} className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300">
                {b.title}
              </Link>
              <span className="text-xs text-slate-500">
                {" "}
                · {[b.gradeLevel ? `Standard ${b.gradeLevel}` : null, b.subject].filter(Boolean).join(" · ")}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <ErasePersonalData key={`erase-${s.id}`} school={s} />
    </div>
  );
}

export function ErrorBoundary() {
  return <SchoolPageError fallback="Failed to fetch school" />;
}
