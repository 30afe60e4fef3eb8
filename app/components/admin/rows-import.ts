import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { readCsvFile } from "#shared/csv.ts";
import { fieldError } from "../ui/field-error.tsx";
import type { Notice } from "./school/form-values.ts";

/** A CSV file's rows, with the row number a spreadsheet shows for each (what the preview and its messages say). */
export type RowsFile = { rows: Record<string, string>[]; rowNumbers: number[] };

/**
 * A CSV import through its page's action (the schools' and the licences'): the file is read in
 * the browser, its rows are checked by the action (intent "validate") and previewed, then saved
 * with the page's own intent, all or nothing. Each answer once: a refusal shows its sentence (and
 * the rows' own errors when the action checked them), a check its preview, a save what `saved`
 * says of it (undefined: not a save), after which the file and preview go. `refusedSave` is added
 * to the sentence of a refused save.
 */
export function useRowsImport<Action, Validation>({
  maxRows,
  noun,
  saved,
  refusedSave = "",
}: {
  maxRows: number;
  noun: string;
  saved: (answer: Record<string, unknown>) => string | undefined;
  refusedSave?: string;
}) {
  const fetcher = useFetcher<Action>();
  const [file, setFile] = useState<RowsFile | null>(null);
  const [validation, setValidation] = useState<Validation | null>(null);
  const [message, setMessage] = useState<Notice | null>(null);
  // The refusal shown, until another file is picked (the fetcher keeps its last answer).
  const [refused, setRefused] = useState<unknown>(null);
  const [label, setLabel] = useState("");
  const saving = useRef(false);
  const latest = useRef(saved);
  latest.current = saved;
  const busy = fetcher.state === "idle" ? null : label;
  // A refusal about the rows is about the file: its input is marked.
  const fileError = busy ? null : fieldError(refused, "rows", "rowNumbers");

  useEffect(() => {
    const answer = fetcher.data as Record<string, unknown> | undefined;
    if (!answer) return;
    setRefused(typeof answer.error === "string" ? answer : null);
    if (typeof answer.error === "string") {
      if (answer.rows) setValidation(answer.rows as Validation);
      return setMessage({ text: saving.current && refusedSave ? `${answer.error} ${refusedSave}` : answer.error });
    }
    if ("validation" in answer) return setValidation(answer.validation as Validation);
    const text = latest.current(answer);
    if (text === undefined) return;
    setMessage({ text, tone: "success" });
    setFile(null);
    setValidation(null);
  }, [fetcher.data, refusedSave]);

  function post(intent: string, busyLabel: string, rows: RowsFile) {
    setLabel(busyLabel);
    fetcher.submit({ intent, ...rows }, { method: "post", encType: "application/json" });
  }

  async function pick(picked: File | undefined) {
    setMessage(null);
    setValidation(null);
    setRefused(null);
    if (!picked) return;
    const read = await readCsvFile(picked, maxRows, noun);
    if (!read.ok) return setMessage({ text: read.message });
    setFile(read.file);
    saving.current = false;
    post("validate", "Checking the rows...", read.file);
  }

  /** Saves the file's rows (or those `choose` keeps) with `intent`, saying `busyLabel` meanwhile. */
  function save(intent: string, busyLabel: string, choose: (file: RowsFile) => RowsFile = (all) => all) {
    if (!file) return;
    saving.current = true;
    setMessage(null);
    post(intent, busyLabel, choose(file));
  }

  return { file, validation, message, busy, fileError, pick, save };
}
