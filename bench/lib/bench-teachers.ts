import { openLocalState } from "../../scripts/lib/local-state.ts";

/** The address of bench teacher `i` (from 1) of `slug`. */
export const benchTeacherEmail = (slug: string, i: number) => `bench.teacher${i}@${slug}.example.org`;

/**
 * Adds `count` teachers to `slug` who share its demo teacher's password. The page budget is per
 * teacher and book, so a load test of page images spreads its requests over them.
 */
export async function addBenchTeachers(persistTo: string, slug: string, count: number): Promise<void> {
  const proxy = await openLocalState(persistTo);
  try {
    const db = proxy.env.DB;
    const insert = db.prepare(
      `INSERT INTO teachers (school_id, name, email, mobile, password_hash)
       SELECT school_id, ?, ?, '5550000000', password_hash FROM teachers WHERE email = ?`,
    );
    await db.batch(
      Array.from({ length: count }, (_, i) =>
        insert.bind(`Bench Teacher ${i + 1}`, benchTeacherEmail(slug, i + 1), `demo.teacher@${slug}.example.org`),
      ),
    );
  } finally {
    await proxy.dispose();
  }
}
