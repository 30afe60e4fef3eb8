import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../../scripts/lib/env.ts";

const CLIENT = join(ROOT, "build/client");
const KB = 1000;

export interface WeightPage {
  name: string;
  path: string;
  cookie?: string;
  /** Budget for the JavaScript the page loads up front, gzipped, in kB (1,000 bytes). */
  jsBudgetKb?: number;
  pdfjsAllowed: boolean;
}

export interface PageWeight {
  name: string;
  path: string;
  status: number;
  jsKb: number;
  cssKb: number;
  /** JavaScript the page's modules may import later (dynamic import()), gzipped. */
  lazyJsKb: number;
  files: { file: string; gzipKb: number }[];
  lazyFiles: string[];
  pdfjsUpFront: string[];
  pdfjsLazy: string[];
  jsBudgetKb: number | null;
  pdfjsAllowed: boolean;
}

const gzipCache = new Map<string, number>();
function gzippedBytes(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(CLIENT, file)), { level: 9 }).byteLength;
    gzipCache.set(file, size);
  }
  return size;
}

/** `/assets/x.js` → `assets/x.js`, only for files that the build really has. */
function toBuildFile(url: string, from = ""): string | null {
  const path = url.startsWith("./") ? join(from, url.slice(2)) : url.replace(/^\//, "");
  return /\.(m?js|css)$/.test(path) && existsSync(join(CLIENT, path)) ? path : null;
}

function staticImports(file: string): string[] {
  const code = readFileSync(join(CLIENT, file), "utf8");
  const dir = file.slice(0, file.lastIndexOf("/"));
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.\/[^"'`]+)["'`]/g)].flatMap((m) => toBuildFile(m[1]!, dir) ?? []);
}

function dynamicImports(file: string): string[] {
  // React Router's route manifest names every route's module: those load on navigation, not here.
  if (/(^|\/)manifest-[\w-]+\.js$/.test(file)) return [];
  const code = readFileSync(join(CLIENT, file), "utf8");
  const dir = file.slice(0, file.lastIndexOf("/"));
  const relative = [...code.matchAll(/\bimport\(\s*["'`](\.\/[^"'`]+)["'`]\s*\)/g)].flatMap((m) => toBuildFile(m[1]!, dir) ?? []);
  // Vite's preload helper lists a dynamic import's dependencies by path, and pdf.js names its
  // worker by URL (`workerSrc = "/assets/pdf.worker...mjs"`).
  const listed = [...code.matchAll(/["'`](\/?assets\/[^"'`]+\.(?:m?js|css))["'`]/g)].flatMap((m) => toBuildFile(m[1]!) ?? []);
  return [...relative, ...listed];
}

function closure(start: string[], next: (file: string) => string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (/\.m?js$/.test(file)) queue.push(...next(file));
  }
  return seen;
}

const isPdfjs = (file: string) =>
  /(^|\/)pdf(\.client|\.worker)/.test(file) ||
  (/\.m?js$/.test(file) && readFileSync(join(CLIENT, file), "utf8").includes("GlobalWorkerOptions"));

const kb = (bytes: number) => +(bytes / KB).toFixed(1);

/**
 * What a first visit downloads: the scripts and stylesheets the served HTML names (modulepreload,
 * script src, inline `import`, stylesheet links) and their static imports, gzipped at level 9
 * from build/client. Dynamic imports are counted apart as "lazy".
 */
export async function measurePageWeight(origin: string, page: WeightPage): Promise<PageWeight> {
  const response = await fetch(`${origin}${page.path}`, { headers: page.cookie ? { Cookie: page.cookie } : {}, redirect: "manual" });
  const html = await response.text();
  const urls = [
    ...[...html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*>/g)].flatMap(
      (m) => /\bhref="([^"]+)"/.exec(m[0])?.[1] ?? [],
    ),
    ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].flatMap((m) =>
      [...m[1]!.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?\(?\s*"([^"]+)"/g)].map((i) => i[1]!),
    ),
  ];
  const upFront = closure(
    urls.flatMap((url) => toBuildFile(url) ?? []),
    staticImports,
  );
  const everything = closure([...upFront], (file) => [...staticImports(file), ...dynamicImports(file)]);
  const lazy = [...everything].filter((file) => !upFront.has(file));
  const sum = (files: string[]) => files.reduce((n, file) => n + gzippedBytes(file), 0);
  const js = [...upFront].filter((f) => /\.m?js$/.test(f));
  const css = [...upFront].filter((f) => f.endsWith(".css"));
  return {
    name: page.name,
    path: page.path,
    status: response.status,
    jsKb: kb(sum(js)),
    cssKb: kb(sum(css)),
    lazyJsKb: kb(sum(lazy.filter((f) => /\.m?js$/.test(f)))),
    files: [...upFront].map((file) => ({ file, gzipKb: kb(gzippedBytes(file)) })).sort((a, b) => b.gzipKb - a.gzipKb),
    lazyFiles: lazy,
    pdfjsUpFront: [...upFront].filter(isPdfjs),
    pdfjsLazy: lazy.filter(isPdfjs),
    jsBudgetKb: page.jsBudgetKb ?? null,
    pdfjsAllowed: page.pdfjsAllowed,
  };
}

export interface RouteChunks {
  label: string;
  /** What the build says this loads first: the files it starts from. */
  source: string;
  jsKb: number;
  /** Dynamic imports reachable from those chunks, gzipped. */
  lazyJsKb: number;
  files: { file: string; gzipKb: number }[];
  pdfjsUpFront: string[];
  pdfjsLazy: string[];
}

function readRouteManifest() {
  const assets = join(CLIENT, "assets");
  const file = existsSync(assets) ? readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f)) : undefined;
  if (!file) throw new Error("no route manifest in build/client/assets: run `npm run build`");
  const code = readFileSync(join(assets, file), "utf8");
  return JSON.parse(code.slice(code.indexOf("{"), code.lastIndexOf("}") + 1)) as {
    entry: { module: string; imports?: string[] };
    routes: Record<string, { module: string; imports?: string[] } | undefined>;
  };
}

/** The files a React Router route starts from (React Router's `manifest-*.js`): the entry, the root and the route, with their listed imports. */
export function routeStart(routeId: string): string[] {
  const manifest = readRouteManifest();
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`the route manifest has no route "${routeId}"`);
  return [manifest.entry, manifest.routes.root, route].flatMap((m) => (m ? [m.module, ...(m.imports ?? [])] : []));
}

/** The chunk an island page starts from (vite/islands.ts emits `island-{name}-{hash}.js`), instead of the router's entry. */
export function islandStart(name: string): string[] {
  const file = readdirSync(join(CLIENT, "assets")).find((f) => f.startsWith(`island-${name}-`) && f.endsWith(".js"));
  if (!file) throw new Error(`no island "${name}" in build/client/assets`);
  return [`/assets/${file}`];
}

/** Every build file a start set of chunks may load, up front or later (`assets/x.js`, as the build has them). */
export function loadableFrom(start: string[]): string[] {
  return [
    ...closure(
      start.flatMap((url) => toBuildFile(url) ?? []),
      (file) => [...staticImports(file), ...dynamicImports(file)],
    ),
  ];
}

/**
 * What a start set of chunks loads up front (them and their static imports) and may load later
 * (dynamic imports), gzipped at level 9 from build/client, and which of them are pdf.js. No server needed.
 */
export function measureChunks(label: string, source: string, start: string[]): RouteChunks {
  const upFront = closure(
    start.flatMap((url) => toBuildFile(url) ?? []),
    staticImports,
  );
  const everything = closure([...upFront], (file) => [...staticImports(file), ...dynamicImports(file)]);
  const lazy = [...everything].filter((file) => !upFront.has(file) && /\.m?js$/.test(file));
  const js = [...upFront].filter((f) => /\.m?js$/.test(f));
  const sum = (files: string[]) => files.reduce((n, file) => n + gzippedBytes(file), 0);
  return {
    label,
    source,
    jsKb: kb(sum(js)),
    lazyJsKb: kb(sum(lazy)),
    files: js.map((file) => ({ file, gzipKb: kb(gzippedBytes(file)) })).sort((a, b) => b.gzipKb - a.gzipKb),
    pdfjsUpFront: js.filter(isPdfjs),
    pdfjsLazy: lazy.filter(isPdfjs),
  };
}
