// Runs a tool (wrangler, vite, vitest, react-router) offline, with .dev.vars in place.
import { ensureDevVars, run } from "./lib/env.ts";

ensureDevVars();
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/with-env.ts <command> [args...]");
  process.exit(2);
}
process.exit(await run(command, args));
