// npm run backup [-- --to DIR] [--persist-to DIR]: the local state (D1, R2 and every school object's
// storage) into a folder, backups/<time> by default (docs/decisions/0046). It serves the state
// itself for the school objects, so no other server may serve it meanwhile.
// npm run backup -- --url https://APP_DOMAIN [--to DIR], with OPERATOR_SECRET in the environment:
// the school objects of a running Worker alone (production's D1 and R2 have their own tools).
import { join, resolve } from "node:path";
import { backupObjectsAt, backupState, operatorAppAt, runOrExit } from "./lib/backup/run.ts";
import { argValue, ROOT } from "./lib/env.ts";
import { DEFAULT_STATE } from "./lib/local-state.ts";
import { appAt } from "./lib/page-stores.ts";

const persistTo = resolve(argValue("--persist-to") ?? DEFAULT_STATE);
const stamp = new Date()
  .toISOString()
  .replaceAll(":", "-")
  .replace(/\.\d+Z$/, "Z");
const to = resolve(argValue("--to") ?? join(ROOT, "backups", stamp));

const url = argValue("--url");
if (url) {
  await runOrExit("Backup", () => backupObjectsAt(operatorAppAt(url, "back up"), to, (line) => console.log(line)));
  process.exit(0);
}
if (persistTo === DEFAULT_STATE && (await appAt(`http://127.0.0.1:${process.env.PORT ?? 8787}`))) {
  console.error("npm start is serving .wrangler/state: stop it first. A backup serves the state itself to read the school objects.");
  process.exit(1);
}
await runOrExit("Backup", () => backupState({ persistTo, to, log: (line) => console.log(line) }));
