import { spawn } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// Keep wrangler offline: no metrics, no request.cf lookups, no banner.
const WRANGLER_OFFLINE = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};
Object.assign(process.env, WRANGLER_OFFLINE);

/** Local secrets come from .dev.vars; a fresh clone gets the example's development values. */
export function ensureDevVars(): void {
  const target = `${ROOT}.dev.vars`;
  if (!existsSync(target)) {
    copyFileSync(`${ROOT}.dev.vars.example`, target);
    console.log("Created .dev.vars from .dev.vars.example");
  }
}

export function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...WRANGLER_OFFLINE, PATH: `${ROOT}node_modules/.bin:${process.env.PATH ?? ""}`, ...extra };
}

/** Runs a command from node_modules/.bin with inherited output; resolves to its exit code. */
export function run(command: string, args: string[], options: { env?: Record<string, string> } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env: toolEnv(options.env) });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function runOrExit(command: string, args: string[], options: { env?: Record<string, string> } = {}): Promise<void> {
  const code = await run(command, args, options);
  if (code !== 0) {
    console.error(`\n✖ ${command} ${args.join(" ")} exited with ${code}`);
    process.exit(code);
  }
}

export function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
