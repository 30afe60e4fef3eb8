import { z } from "zod";
import type { Actor } from "../admins/audit.ts";
import { grantAccess } from "../books/access.ts";
import type { Db } from "../db/client.ts";
import { IdListSchema } from "../validation/schemas.ts";

// The messages of POST /api/books/access (workers/api/admin-books.ts), for one school's page.
export const AssignBooksSchema = z.object({ bookIds: IdListSchema("book") });

/** Gives the school these books (one audit entry, as the API's grant); pairs that exist are left alone. */
export function assignBooksToSchool(db: Db, actor: Actor, schoolId: number, bookIds: number[]) {
  return grantAccess(db, actor, { schoolIds: [schoolId], bookIds });
}
