import { openLocalState } from "../../scripts/lib/local-state.ts";

/**
 * Adds the school `big-library` with `count` books assigned (rows only; their files are the demo
 * ones) and a demo teacher who shares lincoln-high's password hash.
 */
export async function addBigSchool(persistTo: string, count: number): Promise<void> {
  const proxy = await openLocalState(persistTo);
  const db = proxy.env.DB;
  await db
    .prepare(
      "INSERT INTO schools (slug, name, address1, city, state, zip_code, email, teacher_limit) VALUES ('big-library', 'Big Library School', '1 Stack Street', 'Boston', 'MA', '02108', 'x@big.test', 50)",
    )
    .run();
  const template = await db
    .prepare("SELECT cover_key, pdf_key, pdf_size FROM books WHERE pdf_key IS NOT NULL LIMIT 1")
    .first<{ cover_key: string; pdf_key: string; pdf_size: number }>();
  const subjects = ["Mathematics", "Science", "English", "History", "Art", "Computer Science", "Social Studies"];
  const statements = [];
  for (let i = 0; i < count; i++) {
    statements.push(
      db
        .prepare(
          "INSERT INTO books (title, author1, description, isbn, grade_level, subject, cover_key, pdf_key, pdf_size, page_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 24)",
        )
        .bind(
          `Volume ${String(i + 1).padStart(4, "0")}: ${subjects[i % subjects.length]} Reader`,
          `Author ${i % 97}`,
          `Book number ${i + 1} of the big library, for load tests.`,
          `979-0-${String(100000 + i)}-00-0`,
          (i % 12) + 1,
          subjects[i % subjects.length],
          template?.cover_key ?? null,
          template?.pdf_key ?? null,
          template?.pdf_size ?? null,
        ),
    );
  }
  for (let i = 0; i < statements.length; i += 200) await db.batch(statements.slice(i, i + 200));
  await db
    .prepare(
      "INSERT INTO book_access (school_id, book_id) SELECT (SELECT id FROM schools WHERE slug = 'big-library'), id FROM books WHERE title LIKE 'Volume %'",
    )
    .run();
  await db
    .prepare(
      "INSERT INTO teachers (school_id, name, email, mobile, password_hash) SELECT (SELECT id FROM schools WHERE slug = 'big-library'), 'Demo Teacher', 'demo.teacher@big-library.example.org', '5550000000', password_hash FROM teachers WHERE email = 'demo.teacher@lincoln-high.example.org'",
    )
    .run();
  await proxy.dispose();
}
