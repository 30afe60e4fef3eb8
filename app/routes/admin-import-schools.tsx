import { useState } from "react";
import { AdminPageHeader, cardClasses, rowClasses, tableClasses, theadClasses } from "../components/admin/admin-page.tsx";
import { Button } from "../components/ui/button.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { Spinner } from "../components/ui/spinner.tsx";
import { ApiError, requestJson } from "../lib/api-client.ts";
import { parseCsv, schoolCsvTemplate } from "../lib/csv.ts";
import type { Route } from "./+types/admin-import-schools";

export const meta: Route.MetaFunction = () => [{ title: "Import Schools · Lectern Admin" }];

const MAX_ROWS = 900; // the server's limit per import (see workers/admins/school-import.ts)

type Checked = {
  index: number;
  status: "new" | "duplicate" | "invalid";
  errors: string[];
  data: Record<string, string>;
  generatedSlug?: string;
};
type Validation = { rows: Checked[]; summary: { new: number; duplicate: number; invalid: number } };

const STATUS = {
  new: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200",
  duplicate: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  invalid: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

/** Schools from a CSV file: validated row by row on the server, previewed, then saved all or nothing. */
export default function AdminImportSchools() {
  const [rows, setRows] = useState<Record<string, string>[] | null>(null);
  const [validation, setValidation] = useState<Validation | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);

  async function pick(file: File | undefined) {
    setMessage(null);
    setValidation(null);
    if (!file) return;
    const parsed = parseCsv(await file.text());
    if (parsed.length === 0) return setMessage({ text: "The file has no rows under its header." });
    if (parsed.length > MAX_ROWS) return setMessage({ text: `At most ${MAX_ROWS} schools per file; this one has ${parsed.length}.` });
    setRows(parsed);
    setBusy("Checking the rows...");
    try {
      setValidation(
        await requestJson<Validation>("/api/schools/validate-import", { body: { rows: parsed }, fallback: "Failed to check the file" }),
      );
    } catch (e) {
      setMessage({ text: (e as Error).message });
    } finally {
      setBusy(null);
    }
  }

  async function save(endpoint: "bulk" | "save-generated" | "update-duplicates", label: string) {
    if (!rows) return;
    setBusy(label);
    setMessage(null);
    try {
      const result = await requestJson<{ created?: number; updated?: number }>(`/api/schools/${endpoint}`, {
        body: { rows: endpoint === "update-duplicates" ? rows.filter((_, i) => validation?.rows[i]?.status === "duplicate") : rows },
        fallback: "Failed to save the schools",
      });
      setMessage({
        text: result.updated !== undefined ? `${result.updated} school(s) updated.` : `${result.created} school(s) added.`,
        tone: "success",
      });
      setRows(null);
      setValidation(null);
    } catch (e) {
      const body = e instanceof ApiError ? (e.body as { rows?: Checked[] } | null) : null;
      if (body?.rows) setValidation((v) => (v ? { ...v, rows: body.rows ?? v.rows } : v));
      setMessage({ text: `${(e as Error).message} Nothing was saved.` });
    } finally {
      setBusy(null);
    }
  }

  const summary = validation?.summary;
  const missingSlugs = validation?.rows.some((r) => r.status === "new" && !r.data.slug) ?? false;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Import Schools"
        description="Add hundreds of schools from a CSV file. Every row is checked before anything is saved."
        actions={
          <a
            href={`data:text/csv;charset=utf-8,${encodeURIComponent(schoolCsvTemplate())}`}
            download="lectern-schools-template.csv"
            className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Download CSV template
          </a>
        }
      />
      <div className={cardClasses}>
        <label htmlFor="import-file" className="text-sm font-medium">
          CSV file
        </label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          className="mt-2 block text-sm"
          onChange={(e) => pick(e.target.files?.[0])}
          disabled={busy !== null}
        />
        {busy && (
          <p className="mt-3 flex items-center gap-2 text-sm text-indigo-700 dark:text-indigo-300" role="status">
            <Spinner label={busy} className="h-4 w-4" /> {busy}
          </p>
        )}
      </div>
      {message && <MessageBox text={message.text} tone={message.tone} />}
      {validation && summary && (
        <section className={cardClasses} aria-labelledby="preview-title">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 id="preview-title" className="font-semibold">
              Preview: {summary.new} new, {summary.duplicate} already there, {summary.invalid} with errors
            </h2>
            <div className="flex flex-wrap gap-2">
              <Button
                onClick={() => save("bulk", "Saving...")}
                disabled={busy !== null || summary.invalid > 0 || summary.duplicate > 0 || summary.new === 0 || missingSlugs}
              >
                Save {summary.new} new schools
              </Button>
              {missingSlugs && (
                <Button
                  onClick={() => save("save-generated", "Saving with generated slugs...")}
                  disabled={busy !== null || summary.invalid > 0 || summary.duplicate > 0}
                >
                  Save with generated slugs
                </Button>
              )}
              {summary.duplicate > 0 && (
                <Button
                  variant="secondary"
                  onClick={() => save("update-duplicates", "Updating...")}
                  disabled={busy !== null || summary.invalid > 0}
                >
                  Update {summary.duplicate} existing
                </Button>
              )}
            </div>
          </div>
          {summary.invalid > 0 && (
            <MessageBox text="Fix the rows marked invalid in the file and choose it again: the import is all or nothing." />
          )}
          <div className="mt-3 max-h-[32rem] overflow-auto">
            <table className={tableClasses}>
              <thead className={theadClasses}>
                <tr>
                  <th className="py-2 pr-3">Row</th>
                  <th className="py-2 pr-3">Status</th>
                  <th className="py-2 pr-3">School</th>
                  <th className="py-2 pr-3">Slug</th>
                  <th className="py-2 pr-3">Problems</th>
                </tr>
              </thead>
              <tbody>
                {validation.rows.map((row) => (
                  <tr key={row.index} className={`${rowClasses} align-top`}>
                    <td className="py-2 pr-3 tabular-nums">{row.index + 2}</td>
                    <td className="py-2 pr-3">
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS[row.status]}`}>{row.status}</span>
                    </td>
                    <td className="py-2 pr-3">{row.data.schoolName || row.data.name || "—"}</td>
                    <td className="py-2 pr-3 font-mono text-xs">
                      {row.data.slug || (row.generatedSlug ? `${row.generatedSlug} (generated)` : "—")}
                    </td>
                    <td className="py-2 pr-3 text-red-700 dark:text-red-300">{row.errors.join("; ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
