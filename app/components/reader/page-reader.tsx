import { useEffect, useState } from "react";
import { fetchPageList, type PageList, ReaderApiError } from "../../lib/reader/reader-api.ts";
import { Spinner } from "../ui/spinner.tsx";
import type { PageReaderProps } from "./page-reader-props.ts";
import { PageReaderView } from "./page-reader-view.tsx";
import { ReaderError, ReaderPreparing, ReaderSignedOut } from "./reader-error.tsx";

type State =
  | { status: "loading" }
  | { status: "ready"; list: PageList }
  | { status: "preparing" }
  | { status: "signed-out"; message: string }
  | { status: "error"; message: string };

/**
 * The teacher's reader: the book as page images the server watermarks for them, with a text
 * layer, a Text view, search and contents. The PDF itself never reaches the browser.
 */
export function PageReader(props: PageReaderProps) {
  const { bookId, backHref, backLabel, list, loginHref } = props;
  const [state, setState] = useState<State>(() => (list ? { status: "ready", list } : { status: "loading" }));

  useEffect(() => {
    if (list) return;
    const abort = new AbortController();
    setState({ status: "loading" });
    fetchPageList(bookId, abort.signal).then(
      (found) => setState({ status: "ready", list: found }),
      (error: Error) => {
        if (abort.signal.aborted) return;
        if (error instanceof ReaderApiError && error.status === 409) setState({ status: "preparing" });
        else if (error instanceof ReaderApiError && error.signedOut) setState({ status: "signed-out", message: error.message });
        else setState({ status: "error", message: error.message });
      },
    );
    return () => abort.abort();
  }, [bookId, list]);

  if (state.status === "ready") return <PageReaderView {...props} list={state.list} serverRendered={state.list === list} />;
  if (state.status === "preparing") return <ReaderPreparing backHref={backHref} backLabel={backLabel} />;
  if (state.status === "signed-out") return <ReaderSignedOut loginHref={loginHref ?? backHref} message={state.message} />;
  if (state.status === "error") return <ReaderError message={state.message} backHref={backHref} backLabel={backLabel} />;
  return (
    <main
      data-reader
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-slate-900 text-slate-200 print:hidden"
    >
      <Spinner label="Loading the book..." className="h-10 w-10 text-indigo-400" />
      <p aria-hidden="true">Loading the book...</p>
    </main>
  );
}
