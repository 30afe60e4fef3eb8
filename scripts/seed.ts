// npm run db:seed: migrations, then demo schools, books (PDF + cover in local R2), assignments and accounts. Idempotent.
import { argValue } from "./lib/env.ts";
import { seedLocal } from "./lib/seed-local.ts";

const persistTo = argValue("--persist-to");
const { report } = await seedLocal(persistTo, (line) => console.log(line));
console.log(
  `Seeded: ${report.schools} schools, ${report.books} books, ${report.assignments} assignments, ${report.objects} files, ${report.accounts} accounts created (0 everywhere means everything was already there).`,
);
