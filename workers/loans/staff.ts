/**
 * The school's offline loans as an admin or its coordinator sees them (issue 45 item 6,
 * docs/decisions/0050): who keeps which book offline until when, and "Return now", which ends the
 * loan (its seat free at once, its key never handed out again; the device erases its copy at its
 * next contact). Returning is a command with its audit entry.
 */
import { z } from "zod";
import { OFFLINE_LOAN_GONE } from "#shared/rules/offline.ts";
import type { StaffOfflineLoan } from "#shared/rules/offline-loan-schema.ts";
import { type AuditActor, auditEntry } from "../admins/audit.ts";
import { findSchoolById } from "../auth/sessions.ts";
import type { Db } from "../db/client.ts";
import { adminCommand, teacherCommand } from "../kernel/command.ts";
import { done, failed, type Outcome } from "../kernel/failure.ts";
import { type HotState, schoolObject } from "../school-object/objects.ts";
import { coordinatorActor, findCoordinator, NOT_COORDINATOR } from "../teachers/coordinators.ts";
import { idFrom } from "../validation/schemas.ts";
import { keepLicensedLoans } from "./terms.ts";

const SCHOOL_NOT_FOUND = "School not found";

/** The school's live loans, latest first; null when there is no such school. Loans their licence no longer allows end here. */
export async function schoolOfflineLoans(db: Db, hot: HotState, schoolId: number, now = Date.now()): Promise<StaffOfflineLoan[] | null> {
  if (!(await findSchoolById(db, schoolId))) return null;
  const live = await schoolObject(hot, schoolId).schoolLoans(schoolId, now);
  const kept = await keepLicensedLoans(db, hot, schoolId, live, now);
  return kept.map(({ loan, terms }) => ({ ...loan, bookTitle: terms.title }));
}

/** Ends a live loan of the school (else 404), then writes its audit entry. */
export async function returnLoanNow(
  db: Db,
  hot: HotState,
  actor: AuditActor,
  schoolId: number,
  loanId: string,
  now = Date.now(),
): Promise<Outcome<{ message: string }>> {
  const returned = await schoolObject(hot, schoolId).returnLoanById(schoolId, loanId, now);
  if (!returned.ok) return returned;
  const loan = returned.value;
  await auditEntry(
    db,
    actor,
    {
      action: "offline-loan.return",
      entityType: "teacher",
      entityId: loan.teacherId,
      before: {
        name: loan.teacherName,
        email: loan.teacherEmail,
        bookId: loan.bookId,
        loanId: loan.id,
        until: loan.until,
        offline: "kept",
      },
      after: { name: loan.teacherName, email: loan.teacherEmail, bookId: loan.bookId, loanId: loan.id, offline: "returned" },
    },
    now,
  );
  return done({
    message: `${loan.teacherName}'s offline copy is returned: its seat is free, and the copy is erased at the device's next contact.`,
  });
}

const LoanIdSchema = z.string().trim().min(1).max(64);
const LOAN_GONE = { kind: "not-found", error: OFFLINE_LOAN_GONE } as const;

/** `POST /api/schools/:id/offline-loans/:loanId/return` and the school page's "Return now". */
export const returnLoanCommand = adminCommand(z.object({ id: z.unknown(), loanId: z.unknown() }), async ({ db, env, actor }, input) => {
  const schoolId = idFrom(input.id);
  if (!schoolId) return failed({ kind: "not-found", error: SCHOOL_NOT_FOUND });
  const loanId = LoanIdSchema.safeParse(input.loanId);
  if (!loanId.success) return failed(LOAN_GONE);
  return returnLoanNow(db, env, actor, schoolId, loanId.data);
});

/** The coordinator's "Return now": the school is their session's, never the request's; a plain teacher is 403. */
export const coordinatorReturnLoanCommand = teacherCommand(z.object({ loanId: z.unknown() }), async ({ db, env, who }, input) => {
  const coordinator = await findCoordinator(db, who);
  if (!coordinator) return failed({ kind: "refused", error: NOT_COORDINATOR });
  const loanId = LoanIdSchema.safeParse(input.loanId);
  if (!loanId.success) return failed(LOAN_GONE);
  return returnLoanNow(db, env, coordinatorActor(coordinator.email), who.schoolId, loanId.data);
});
