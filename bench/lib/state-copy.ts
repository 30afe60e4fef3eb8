import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * A copy of a local state (`.wrangler/state`-like) for one run, without the file named `skip`
 * (the cache's marker). R2's blobs are written once and only ever unlinked, so they are
 * hard-linked; the SQLite files (D1, R2's index, Durable Objects) are copied, since the run writes to them.
 */
export function copyLocalState(from: string, to: string, skip: string): void {
  rmSync(to, { recursive: true, force: true });
  const copy = (source: string, target: string) => {
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      const [a, b] = [join(source, entry.name), join(target, entry.name)];
      if (entry.isDirectory()) copy(a, b);
      else if (entry.name === skip) continue;
      else if (entry.name.includes(".sqlite")) copyFileSync(a, b);
      else linkSync(a, b);
    }
  };
  copy(from, to);
}
