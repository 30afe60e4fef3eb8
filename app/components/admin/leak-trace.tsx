import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { MAX_TRACE_BYTES, TRACE_TYPES } from "#shared/rules/leak-trace.ts";
import { api, call } from "../../lib/api-client.ts";
import { Button } from "../ui/button.tsx";
import { FileDrop } from "../ui/file-drop.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { cardClasses } from "./admin-page.tsx";
import { LeakMatches } from "./leak-matches.tsx";

const INPUT_ID = "leak-image";

/** The image itself is the body, its type the Content-Type; the client's `init` sends it as is. */
function traceImage(file: File) {
  return call(
    () => api.api.leaks.trace.$post(undefined, { init: { body: file, headers: { "Content-Type": file.type } } }),
    "The trace failed. Please try again.",
  );
}

/** An object URL of the chosen image for its preview, revoked when another is chosen or the page goes. */
function usePreviewUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

/** Choose (or drop) a leaked page image, trace it, and see who received it. */
export function LeakTrace() {
  const [file, setFile] = useState<File | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const preview = usePreviewUrl(file);
  const trace = useMutation({ mutationFn: traceImage });
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const busy = trace.isPending;

  // The answer comes seconds after the click: take a screen reader's focus to it.
  useEffect(() => {
    if (trace.isSuccess) resultHeading.current?.focus();
  }, [trace.isSuccess]);

  function choose(chosen: File) {
    setPickError(null);
    trace.reset();
    setFile(chosen);
  }

  function refuse(message: string) {
    trace.reset();
    setFile(null);
    setPickError(message);
  }

  function startOver() {
    trace.reset();
    setFile(null);
    setPickError(null);
    document.getElementById(INPUT_ID)?.focus();
  }

  const error = pickError ?? (trace.isError ? trace.error.message : null);
  return (
    <div className="max-w-3xl">
      <div className={`${cardClasses} space-y-4`}>
        <FileDrop
          id={INPUT_ID}
          label="Leaked page image"
          accept={TRACE_TYPES}
          maxBytes={MAX_TRACE_BYTES}
          typeError="Choose a PNG, JPEG or WebP image"
          sizeError="The image is larger than 20 MB"
          hint="A screenshot, photo export or crop of a page: PNG, JPEG or WebP, up to 20 MB."
          chosen={file}
          disabled={busy}
          onFile={choose}
          onError={refuse}
        />
        {preview && (
          <figure className="flex justify-center rounded-lg bg-slate-100 p-2 dark:bg-slate-800">
            <img src={preview} alt={`The chosen image, ${file?.name ?? ""}`} className="max-h-80 w-auto max-w-full object-contain" />
          </figure>
        )}
        {error && <MessageBox text={error} tone="error" />}
        <div className="flex flex-wrap items-center gap-3">
          <Button disabled={!file || busy} onClick={() => file && trace.mutate(file)}>
            {busy && <BusyWheel />}
            Trace
          </Button>
          {(trace.isSuccess || trace.isError) && (
            <Button variant="secondary" onClick={startOver}>
              Trace another image
            </Button>
          )}
          <p aria-live="polite" className="text-sm text-slate-700 dark:text-slate-300">
            {busy ? "Tracing… this takes a few seconds" : ""}
          </p>
        </div>
      </div>
      {trace.isSuccess && <LeakMatches matches={trace.data.matches} headingRef={resultHeading} />}
    </div>
  );
}

/** The spinner's wheel alone: what it means is said in the live region beside the button. */
function BusyWheel() {
  return (
    <svg className="h-4 w-4 animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" className="opacity-25" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
