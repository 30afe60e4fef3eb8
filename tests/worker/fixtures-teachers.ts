import { hashPassword } from "../../workers/auth/password.ts";
import { teachers } from "../../workers/db/schema.ts";
import { db } from "./helpers.ts";

/**
 * A teacher row written straight to D1 with a real hash of `password`, so the login API can be
 * tried against it (no session is opened): the row as stored.
 */
export async function teacherWithPassword(schoolId: number, email: string, password: string, name = "Grace Hopper") {
  const [teacher] = await db()
    .insert(teachers)
    .values({ schoolId, name, email, mobile: "5551234567", passwordHash: await hashPassword(password) })
    .returning();
  return teacher!;
}
