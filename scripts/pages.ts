// npm run pages [-- <bookId>] [--persist-to DIR]: prepares the page images and text of every book of
// the local state whose pages are missing (or of the one book given), with pdf.js under Node.
import { argValue } from "./lib/env.ts";
import { DEFAULT_STATE, withLocalState } from "./lib/local-state.ts";
import { prepareMissingPages } from "./lib/node-pages.ts";

const persistTo = argValue("--persist-to") ?? DEFAULT_STATE;
const positional = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith("--") && all[i - 1] !== "--persist-to");
const bookId = positional[0] === undefined ? undefined : Number(positional[0]);
if (bookId !== undefined && !(Number.isSafeInteger(bookId) && bookId > 0)) {
  console.error(`Usage: npm run pages [-- <bookId>] [--persist-to DIR]   ("${positional[0]}" is not a book id)`);
  process.exit(2);
}

const reports = await withLocalState(persistTo, (env) => prepareMissingPages(env, { bookId, log: (line) => console.log(line) }));
const failed = reports.filter((r) => r.error);
console.log(
  reports.length
    ? `Prepared ${reports.length - failed.length} of ${reports.length} books${failed.length ? `; ${failed.length} could not be prepared` : ""}.`
    : bookId
      ? `No book ${bookId}.`
      : "Every book's pages are ready.",
);
process.exit(failed.length ? 1 : 0);
