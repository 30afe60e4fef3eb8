// npm run pages [-- <bookId>] [--persist-to DIR] [--url URL | --local]: prepares the page images and
// text of every book whose pages are missing (or of the one book given), with pdf.js under Node.
// While the app serves the local state (npm start, at URL or http://localhost:$PORT), the results go
// through its admin API, signed in with the demo admin's login (or LECTERN_ADMIN_EMAIL and
// LECTERN_ADMIN_PASSWORD): the app stays the only writer of its database. Otherwise the local
// state is written directly.
import { argValue } from "./lib/env.ts";
import { DEFAULT_STATE, localVars, withLocalState } from "./lib/local-state.ts";
import { type PrepareReport, prepareMissingPages } from "./lib/node-pages.ts";
import { appAt, appPageStore, localPageStore } from "./lib/page-stores.ts";

const persistTo = argValue("--persist-to");
const url = argValue("--url");
const positional = process.argv
  .slice(2)
  .filter((arg, i, all) => !arg.startsWith("--") && all[i - 1] !== "--persist-to" && all[i - 1] !== "--url");
const bookId = positional[0] === undefined ? undefined : Number(positional[0]);
if (bookId !== undefined && !(Number.isSafeInteger(bookId) && bookId > 0)) {
  console.error(`Usage: npm run pages [-- <bookId>] [--persist-to DIR] [--url URL | --local]   ("${positional[0]}" is not a book id)`);
  process.exit(2);
}

const log = (line: string) => console.log(line);

/** The app to go through: the one named, else the one `npm start` serves the default state at, if it answers. */
async function runningApp(): Promise<string | null> {
  if (url) {
    if (await appAt(url)) return url;
    console.error(`No app answers at ${url}/api/health.`);
    process.exit(1);
  }
  if (process.argv.includes("--local") || persistTo) return null;
  return appAt(`http://127.0.0.1:${process.env.PORT ?? 8787}`);
}

async function prepare(): Promise<PrepareReport[]> {
  const app = await runningApp();
  if (!app) return withLocalState(persistTo ?? DEFAULT_STATE, (env) => prepareMissingPages(localPageStore(env), { bookId, log }));
  const vars = localVars();
  const admin = {
    email: process.env.LECTERN_ADMIN_EMAIL ?? vars.DEMO_ADMIN_EMAIL ?? "",
    password: process.env.LECTERN_ADMIN_PASSWORD ?? vars.DEMO_ADMIN_PASSWORD ?? "",
  };
  log(`The app is running at ${app}: the pages go through it, signed in as ${admin.email}.`);
  const store = await appPageStore(app, admin);
  try {
    return await prepareMissingPages(store, { bookId, log });
  } finally {
    await store.close();
  }
}

const reports = await prepare();
const failed = reports.filter((r) => r.error);
if (failed.some((r) => /SQLITE_BUSY|database is locked/.test(r.error ?? "")))
  console.error("The local database is busy: an app serves it on another port? Run again with --url http://localhost:PORT.");
console.log(
  reports.length
    ? `Prepared ${reports.length - failed.length} of ${reports.length} books${failed.length ? `; ${failed.length} could not be prepared` : ""}.`
    : bookId
      ? `No book ${bookId}.`
      : "Every book's pages are ready.",
);
process.exit(failed.length ? 1 : 0);
