import { join } from "node:path";
import { ROOT } from "../../scripts/lib/env.ts";

/** The e2e run's own app state, wiped and seeded every run, so the tests always meet exactly the seeded world. */
export const E2E_STATE = join(ROOT, ".wrangler/e2e-state");

/**
 * Written when the app is up for the tests (`ok`) or could not come up (the reason): `npm test`
 * seeds the state while the other projects run (tests/e2e/seed.ts), and each e2e file waits for it
 * (tests/e2e/wait-for-app.ts).
 */
export const APP_STATUS = join(ROOT, ".wrangler/e2e-app-status.txt");

/** Written by tests/e2e/seed.ts when the state is seeded (`ok`), or why it is not. */
export const SEEDED = `${E2E_STATE}.seeded`;
