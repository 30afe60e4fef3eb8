// Each e2e file's first step: the app the global setup starts may still be coming up (npm test
// seeds its world while the other projects run), so wait for its word before any test.
import { existsSync, readFileSync } from "node:fs";
import { APP_STATUS } from "./state.ts";

const deadline = Date.now() + 15 * 60_000;
while (!existsSync(APP_STATUS)) {
  if (Date.now() > deadline) throw new Error("The e2e app did not come up within 15 minutes");
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const status = readFileSync(APP_STATUS, "utf8");
if (status !== "ok") throw new Error(status);
