// `npm test` runs this in the background from its start (scripts/test.ts): the e2e world is seeded
// (rendering the demo books' pages takes minutes on a fresh clone) while the checks and the other
// test projects run. The e2e project's global setup waits for it (LECTERN_E2E_SEEDING).
import { rmSync, writeFileSync } from "node:fs";
import { seedFresh } from "../../scripts/lib/seed-local.ts";
import { E2E_STATE, SEEDED } from "./state.ts";

rmSync(SEEDED, { force: true });
rmSync(E2E_STATE, { recursive: true, force: true });
try {
  await seedFresh(E2E_STATE);
  writeFileSync(SEEDED, "ok");
} catch (error) {
  writeFileSync(SEEDED, `The e2e seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
