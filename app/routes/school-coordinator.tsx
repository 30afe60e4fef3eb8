import { data } from "react-router";
import { coordinatorExportCommand } from "../../workers/exports/commands.ts";
import { schoolExportsForPage } from "../../workers/exports/store.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { coordinatorFreeSeatCommand, schoolSeatHolders } from "../../workers/licences/seat-holders.ts";
import { schoolOfflineLoans } from "../../workers/loans/staff.ts";
import { lastDays, rangeChoice } from "../../workers/reports/range.ts";
import { coordinatorSchoolReport, coordinatorTeachers } from "../../workers/teachers/coordinator-views.ts";
import {
  coordinatorDisableCommand,
  coordinatorEnableCommand,
  coordinatorSendResetCommand,
  coordinatorSignOutCommand,
  findCoordinator,
  NOT_COORDINATOR,
} from "../../workers/teachers/coordinators.ts";
import { coordinatorDownloadHref, readCoordinatorExports } from "../components/admin/school/export-calls.ts";
import { LOAN_RETURN_INTENT, OfflineLoans } from "../components/admin/school/offline-loans.tsx";
import { EXPORT_INTENT, SchoolExport } from "../components/admin/school/school-export.tsx";
import { SchoolTeachers } from "../components/admin/school/school-teachers.tsx";
import { SEAT_FREE_INTENT, SeatHolders } from "../components/admin/school/seat-holders.tsx";
import { type SchoolCsvHref, SchoolUsage } from "../components/admin/usage/school-usage.tsx";
import { REDEEM_INTENT, RedeemCode } from "../components/school/redeem-code.tsx";
import { teacherContext } from "../lib/guards/teacher.server.ts";
import { coordinatorReturnLoanAction } from "../lib/offline-loans.server.ts";
import { redeemForOwnSchoolAction } from "../lib/redeem-code.server.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/school-coordinator";

export const meta: Route.MetaFunction = () => [{ title: "My school · Lectern" }];

/**
 * "My school" (docs/decisions/0030): for the school's coordinators, the school's usage report (the
 * admin's, this school only, with its CSVs) and its teachers, with disable, enable, end sessions
 * and send a password reset; and who holds the seats of its seat-limited books, with "Free seat"
 * (issue 41); and the school's data export (docs/decisions/0044). A plain teacher gets 403 here, as
 * from the API.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { teacher, school } = context.get(teacherContext);
  const { db, env } = context.get(appContext);
  const coordinator = await findCoordinator(db, { schoolId: school.id, teacherId: teacher.id });
  if (!coordinator) throw data(NOT_COORDINATOR, { status: 403 });
  const days = rangeChoice(new URL(request.url).searchParams.get("range"));
  const range = lastDays(days);
  const [teachers, report, seats, exports, offline] = await Promise.all([
    coordinatorTeachers(db, env, school.id),
    coordinatorSchoolReport(db, env, school.id, range),
    schoolSeatHolders(db, env, school.id),
    schoolExportsForPage(env.BOOKS, school.id),
    schoolOfflineLoans(db, env, school.id),
  ]);
  return {
    teachers,
    days,
    report,
    seats: seats ?? [],
    offline: offline ?? [],
    exports,
    schoolId: school.id,
    slug: school.slug,
    schoolName: school.schoolName,
    basePath: context.get(teacherContext).basePath,
  };
}

/** The teachers table's intents, each the command its API route runs (POST .../coordinator/teachers/{id}/...). */
const COMMANDS = {
  "teacher-disable": coordinatorDisableCommand,
  "teacher-enable": coordinatorEnableCommand,
  "teacher-sign-out": coordinatorSignOutCommand,
  "teacher-send-reset": coordinatorSendResetCommand,
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const intent = String(form.get("intent") ?? "");
  if (intent === SEAT_FREE_INTENT) {
    const fields = { bookId: form.get("bookId") ?? "", teacherId: form.get("teacherId") ?? "" };
    const outcome = await runCommand({ context, request }, coordinatorFreeSeatCommand, fields);
    return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
  }
  if (intent === EXPORT_INTENT) {
    const outcome = await runCommand({ context, request }, coordinatorExportCommand, {});
    return reply(outcome, { intent }, () => ({ intent, message: "The export is being prepared." }));
  }
  if (intent === LOAN_RETURN_INTENT) return coordinatorReturnLoanAction({ context, request }, intent, form);
  // A bookstore code for this school (docs/decisions/0053): the command checks the coordinator.
  if (intent === REDEEM_INTENT) return redeemForOwnSchoolAction({ context, request }, intent, form);
  if (!(intent in COMMANDS)) return reply(failure("invalid", "Unknown action"), { intent });
  const command = COMMANDS[intent as keyof typeof COMMANDS];
  const outcome = await runCommand({ context, request }, command, { teacherId: form.get("teacherId") ?? "" });
  return reply(outcome, { intent }, ({ message }) => ({ intent, message }));
}

export default function SchoolCoordinator({ loaderData }: Route.ComponentProps) {
  const { teachers, days, report, seats, offline, exports, schoolId, slug, schoolName, basePath } = loaderData;
  const csvHref: SchoolCsvHref = (what, range) => {
    const params = new URLSearchParams({ from: range.from, to: range.to, format: "csv", report: what });
    return `/api/schools/slug/${encodeURIComponent(slug)}/coordinator/usage?${params.toString()}`;
  };
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">My school</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {schoolName}'s reading and teachers. As a coordinator you can disable, enable and sign out your school's teachers, send them a
          password reset, free a book's seat and return a book kept for offline reading; the publisher's team handles removing teachers and
          the teacher limit.
        </p>
      </div>
      <RedeemCode who="coordinator" next={{ to: `${basePath}/books`, label: "Open the library" }} />
      <SchoolUsage
        schoolId={schoolId}
        days={days}
        report={report}
        csvHref={csvHref}
        bookHref={(bookId) => `${basePath}/dashboard/book/${bookId}`}
      />
      <SchoolTeachers teachers={teachers} manage="coordinator" />
      <SeatHolders seats={seats} />
      <OfflineLoans loans={offline} />
      <SchoolExport exports={exports} load={readCoordinatorExports(slug)} downloadHref={coordinatorDownloadHref(slug)} />
    </div>
  );
}
