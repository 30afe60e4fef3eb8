// The reader bench's state, prepared once and reused: seeding it stores ~1 GB of page images into
// local R2 (minutes, even when every page comes from the page cache), so it is kept in its own
// folder while nothing that makes it has changed, and each run gets a copy of it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runOrExit } from "../../scripts/lib/env.ts";
import { withLocalState } from "../../scripts/lib/local-state.ts";
import { seedState } from "./app-server.ts";
import { addReaderBooks, type BenchBook, HEAVY, SHARED_PDFS } from "./reader-books.ts";
import { copyLocalState } from "./state-copy.ts";

const CACHED = ".wrangler/bench-reader-cache";
const MARKER = "bench-reader.json";
/** What makes the state: change any of these and it is built again (pages still come from the page cache). */
const SOURCES = [
  "migrations",
  "scripts/seed",
  "workers/page-images/page-sets.ts",
  "scripts/lib/node-pages.ts",
  "scripts/lib/render-worker.ts",
  "scripts/lib/seed-local.ts",
  "app/lib/pages",
  "bench/lib/big-pdf.ts",
  "bench/lib/reader-books.ts",
];

function cacheKey(): string {
  const hash = createHash("sha256").update(JSON.stringify(HEAVY));
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) add(join(path, entry));
    else hash.update(path).update(readFileSync(path));
  };
  for (const source of SOURCES) add(join(ROOT, source));
  // The shared PDFs by name and size: reading 100 MB of them for a hash is not worth it.
  if (existsSync(SHARED_PDFS))
    for (const file of readdirSync(SHARED_PDFS).sort()) hash.update(`${file}:${statSync(join(SHARED_PDFS, file)).size}`);
  return hash.digest("hex").slice(0, 16);
}

/** The reader state in `state` (built or copied), its books, and the demo accounts' secrets. */
export async function readerState(state: string, slug: string, log: (line: string) => void) {
  if (!existsSync(join(ROOT, "build/server/index.js"))) await runOrExit("react-router", ["build"]);
  const cached = join(ROOT, CACHED);
  const marker = join(cached, MARKER);
  const key = cacheKey();
  let books: BenchBook[];
  let fromCache = false;
  if (existsSync(marker) && JSON.parse(readFileSync(marker, "utf8")).key === key) {
    const saved = JSON.parse(readFileSync(marker, "utf8")) as { date: string; books: BenchBook[] };
    // Pages rendered while the cache was built were rendered then, not now.
    books = saved.books.map((book) => ({
      ...book,
      pages: { ...book.pages, fromCache: true, renderedAt: book.pages.renderedAt === "this run" ? saved.date : book.pages.renderedAt },
    }));
    fromCache = true;
  } else {
    log(`preparing the reader state in ${CACHED} (key ${key}); later runs copy it`);
    await seedState(CACHED, async (dir) => {
      books = await addReaderBooks(dir, slug, log);
    });
    writeFileSync(marker, `${JSON.stringify({ key, date: new Date().toISOString(), books: books! })}\n`);
  }
  const started = performance.now();
  const persistTo = join(ROOT, state);
  copyLocalState(cached, persistTo, MARKER);
  log(`reader state ${fromCache ? "cached" : "built"}; copied in ${Math.round(performance.now() - started)} ms`);
  const env = await withLocalState(persistTo, async ({ vars }) => ({
    DEMO_TEACHER_PASSWORD: String(vars.DEMO_TEACHER_PASSWORD),
    DEMO_ADMIN_EMAIL: String(vars.DEMO_ADMIN_EMAIL ?? "admin@lectern.example"),
    DEMO_ADMIN_PASSWORD: String(vars.DEMO_ADMIN_PASSWORD),
  }));
  return { persistTo, books: books!, env };
}
