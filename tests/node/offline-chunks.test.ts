import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chunkImportsIn } from "../../app/sw/shell-rules.ts";
import { islandStart, loadableFrom, routeStart } from "../../bench/lib/page-weight.ts";
import { ROOT } from "../../scripts/lib/env.ts";

// A kept page opens offline only if the service worker stored every script it may load, the lazy
// parts too (the reader's panels, text view and presentation, the offline list, "Keep for
// offline"). The worker finds them by reading each stored script for its imports (chunkImportsIn);
// this walks the real build the same way and compares with every file the build can load from the
// page. It failed when the build wrote import() with backquotes and the worker looked for quotes.

const CLIENT = join(ROOT, "build/client");

/** What the service worker stores, starting from `start` (`/assets/x.js`), reading each script as it does. */
function storedBy(start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const path = queue.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    if (path.endsWith(".js")) queue.push(...chunkImportsIn(readFileSync(join(CLIENT, path), "utf8")));
  }
  return seen;
}

/** A page, where it starts, and whether it has parts that load after it shows. */
const pages: [string, () => string[], boolean][] = [
  ["the teacher's reader (its island)", () => islandStart("page-reader"), true],
  ["the teacher's reader (the router's route)", () => routeStart("school-reader"), true],
  ["the dashboard", () => routeStart("school-dashboard"), true],
  ["a book's page", () => routeStart("school-book"), false],
  ["the school's offline page", () => routeStart("school-offline"), false],
];

describe("the service worker's walk of the build's scripts", () => {
  it.each(pages)("finds every script %s may load, lazy ones included", (_name, start, hasLazy) => {
    const urls = start();
    const loadable = loadableFrom(urls).filter((file) => file.endsWith(".js"));
    const lazy = loadable.filter((file) => !urls.includes(`/${file}`));
    expect(lazy.length > 0).toBe(hasLazy);
    const stored = storedBy(urls.filter((url) => url.endsWith(".js")));
    expect(loadable.filter((file) => !stored.has(`/${file}`))).toEqual([]);
  });
});
