// npm run backup [-- --to DIR] [--persist-to DIR]: the local state (D1, R2 and every school object's
// storage) into a folder, backups/<time> by default (docs/decisions/0046). It serves the state
// itself for the school objects, so no other server may serve it meanwhile.
import { join, resolve } from "node:path";
import { backupState } from "./lib/backup/run.ts";
import { argValue, ROOT } from "./lib/env.ts";
import { DEFAULT_STATE } from "./lib/local-state.ts";
import { appAt } from "./lib/page-stores.ts";

const persistTo = resolve(argValue("--persist-to") ?? DEFAULT_STATE);
const stamp = new Date()
  .toISOString()
  .replaceAll(":", "-")
  .replace(/\.\d+Z$/, "Z");
const to = resolve(argValue("--to") ?? join(ROOT, "backups", stamp));

if (persistTo === DEFAULT_STATE && (await appAt(`http://127.0.0.1:${process.env.PORT ?? 8787}`))) {
  console.error("npm start is serving .wrangler/state: stop it first. A backup serves the state itself to read the school objects.");
  process.exit(1);
}
try {
  await backupState({ persistTo, to, log: (line) => console.log(line) });
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
