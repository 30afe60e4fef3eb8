/**
 * What a coordinator sees of their school (docs/decisions/0030), for the API and the "My school"
 * page alike: its teachers (without their mobile numbers, which only the publisher's admins see)
 * and its usage report, the same one the admin's school page shows.
 */
import type { Db } from "../db/client.ts";
import { schoolReport } from "../reports/detail.ts";
import type { DayRange } from "../reports/range.ts";
import { flushForReport, type HotState } from "../school-object/objects.ts";
import { listSchoolTeachers } from "./management.ts";

export async function coordinatorTeachers(db: Db, hot: HotState, schoolId: number) {
  const rows = (await listSchoolTeachers(db, hot, schoolId)) ?? [];
  return rows.map(({ mobile: _mobile, ...teacher }) => teacher);
}

export type CoordinatorTeacher = Awaited<ReturnType<typeof coordinatorTeachers>>[number];

/** The school's report over the range, its object flushed first (so today's reading is in it). */
export async function coordinatorSchoolReport(db: Db, hot: HotState, schoolId: number, range: DayRange) {
  await flushForReport(hot, schoolId, range);
  return schoolReport(db, schoolId, range);
}
