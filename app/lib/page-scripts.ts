import { islands } from "virtual:lectern/islands";
import { useMatches } from "react-router";
import type { IslandName } from "../islands/island-props.ts";

/**
 * What a page runs in the browser. Most pages hydrate the whole app. A route can opt out with a
 * `handle.scripts` that returns "none" (plain HTML: links and anchors are all it needs) or one
 * island: a component tree that hydrates on its own, without the router (docs/decisions/0010).
 */
export type PageScripts = "none" | { island: IslandName; props: Record<string, unknown> };
export type PageScriptsHandle = { scripts: (loaderData: unknown) => PageScripts };

export type ResolvedScripts = "app" | "none" | { island: IslandName; props: Record<string, unknown>; src: string; preload: string[] };

/** The leaf route decides, on the server; without a built island (as in `vite dev`) the page hydrates the whole app. */
export function usePageScripts(): ResolvedScripts {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const handle = leaf?.handle as Partial<PageScriptsHandle> | undefined;
  // In the browser this only ever runs inside the whole app (island and script-free pages never
  // hydrate it), where a client-side navigation to such a page must keep the app's scripts.
  if (!leaf || typeof handle?.scripts !== "function" || typeof document !== "undefined") return "app";
  const wanted = handle.scripts(leaf.loaderData);
  if (wanted === "none") return "none";
  const built = islands[wanted.island];
  return built ? { ...wanted, ...built } : "app";
}

/** JSON that is safe inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
