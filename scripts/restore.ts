// npm run restore -- --from DIR [--persist-to DIR]: a backup (npm run backup) into a wiped local
// state (docs/decisions/0046): D1 and R2 through miniflare, then each school object's storage
// through the Worker. The state folder must be empty or absent: remove .wrangler/state first.
// npm run restore -- --from DIR --url https://APP_DOMAIN, with OPERATOR_SECRET in the environment:
// the backup's school objects into a running Worker's (its D1 restored first).
import { resolve } from "node:path";
import { operatorAppAt, restoreObjectsAt, restoreState, runOrExit } from "./lib/backup/run.ts";
import { argValue } from "./lib/env.ts";
import { DEFAULT_STATE } from "./lib/local-state.ts";
import { appAt } from "./lib/page-stores.ts";

const from = argValue("--from");
const persistTo = resolve(argValue("--persist-to") ?? DEFAULT_STATE);
if (!from) {
  console.error("Usage: npm run restore -- --from backups/<time> [--persist-to DIR]");
  process.exit(2);
}
const url = argValue("--url");
if (url) {
  await runOrExit("Restore", () => restoreObjectsAt(operatorAppAt(url, "restore"), resolve(from), (line) => console.log(line)));
  process.exit(0);
}
if (persistTo === DEFAULT_STATE && (await appAt(`http://127.0.0.1:${process.env.PORT ?? 8787}`))) {
  console.error("npm start is serving .wrangler/state: stop it, remove .wrangler/state, then restore.");
  process.exit(1);
}
await runOrExit("Restore", () => restoreState({ from: resolve(from), persistTo, log: (line) => console.log(line) }));
