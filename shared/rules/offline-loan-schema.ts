/**
 * The offline loan's answers (THE SHARED CONTRACT of issue 45, section 2) as zod schemas: the
 * browser parses what the Worker answers with them, and the Worker's tests read the same shapes.
 * Kept apart from shared/rules/offline.ts so a module that only needs the sentences carries no zod.
 */
import { z } from "zod";
import { OFFLINE_READS_PER_REPORT } from "./offline.ts";

/** A loan as its own session receives it: `key` is base64 of 32 random bytes (an AES-256-GCM raw key), `until` ms since the epoch. */
export const OfflineLoanSchema = z.object({
  id: z.string().min(1),
  bookId: z.number().int().positive(),
  until: z.number().int(),
  key: z.string().min(1),
  pageCount: z.number().int().positive(),
});
export type OfflineLoan = z.infer<typeof OfflineLoanSchema>;

/** POST /api/books/:id/offline: 201 (new) or 200 (this session's loan of the book again). */
export const OfflineLoanAnswerSchema = z.object({ loan: OfflineLoanSchema });
/** GET /api/teacher/offline (the contact check): this session's live loans. */
export const OfflineLoansAnswerSchema = z.object({ loans: z.array(OfflineLoanSchema) });

/** POST /api/books/:id/offline/reads: pages read offline, `at` ms since the epoch. */
export const OfflineReadsBodySchema = z.object({
  loanId: z.string().min(1).max(64),
  reads: z.array(z.object({ n: z.number().int(), at: z.number().int() })).max(OFFLINE_READS_PER_REPORT),
});
export type OfflineReadsBody = z.infer<typeof OfflineReadsBodySchema>;
export const OfflineReadsAnswerSchema = z.object({ counted: z.number().int().nonnegative() });

/** A school's loans as an admin or its coordinator sees them. */
export const StaffOfflineLoanSchema = z.object({
  id: z.string(),
  bookId: z.number().int(),
  bookTitle: z.string(),
  teacherId: z.number().int(),
  teacherName: z.string(),
  teacherEmail: z.string(),
  until: z.number().int(),
  createdAt: z.number().int(),
});
export type StaffOfflineLoan = z.infer<typeof StaffOfflineLoanSchema>;
export const StaffOfflineLoansAnswerSchema = z.object({ loans: z.array(StaffOfflineLoanSchema) });
