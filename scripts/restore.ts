// npm run restore -- --from DIR [--persist-to DIR]: a backup (npm run backup) into a wiped local
// state (docs/decisions/0046): D1 and R2 through miniflare, then each school object's storage
// through the Worker. The state folder must be empty or absent: remove .wrangler/state first.
// npm run restore -- --from DIR --url https://APP_DOMAIN, with OPERATOR_SECRET in the environment:
// the backup's school objects into a running Worker's (its D1 restored first).
import { resolve } from "node:path";
import { restoreObjectsAt, restoreState } from "./lib/backup/run.ts";
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
  const secret = process.env.OPERATOR_SECRET ?? "";
  if (secret.length < 32) {
    console.error(
      "Set OPERATOR_SECRET (the Worker's secret, 32+ characters) in the environment to restore a running Worker's school objects.",
    );
    process.exit(2);
  }
  try {
    await restoreObjectsAt({ origin: new URL(url).origin, secret }, resolve(from), (line) => console.log(line));
    process.exit(0);
  } catch (error) {
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
if (persistTo === DEFAULT_STATE && (await appAt(`http://127.0.0.1:${process.env.PORT ?? 8787}`))) {
  console.error("npm start is serving .wrangler/state: stop it, remove .wrangler/state, then restore.");
  process.exit(1);
}
try {
  await restoreState({ from: resolve(from), persistTo, log: (line) => console.log(line) });
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
