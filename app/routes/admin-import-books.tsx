import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { z } from "zod";
import { CATALOGUE_CSV_COLUMNS, catalogueCsvTemplate, fileKey, inPool, MAX_CATALOGUE_ROWS, matchFiles } from "#shared/catalogue-files.ts";
import { readCsvFile } from "#shared/csv.ts";
import { catalogueReport } from "../../workers/books/catalogue-report.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { paramOrNull } from "../../workers/validation/schemas.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import {
  type CatalogueCheck,
  type CatalogueReport,
  type CatalogueRows,
  checkCatalogue,
  createCatalogue,
  fetchReport,
  reportKey,
} from "../components/admin/catalogue/catalogue-calls.ts";
import { CataloguePreview, MatchSummary } from "../components/admin/catalogue/catalogue-preview.tsx";
import { CatalogueReportView } from "../components/admin/catalogue/catalogue-report.tsx";
import { FilesDrop } from "../components/admin/catalogue/files-drop.tsx";
import { BusyLine, CsvFileField, CsvTemplateLink } from "../components/admin/csv-import.tsx";
import { Button } from "../components/ui/button.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { ApiError } from "../lib/api-client.ts";
import { type BookFiles, UPLOADS_AT_ONCE, type UploadPhase, uploadBookFiles } from "../lib/catalogue-upload.client.ts";
import type { Route } from "./+types/admin-import-books";

export const meta: Route.MetaFunction = () => [{ title: "Import a Catalogue · Lectern Admin" }];

const ImportParamSchema = z.string().regex(/^[0-9a-f]{32}$/);

/** With `?import=<id>` (the address an import leaves behind), that import's report, to follow it again later. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const importId = paramOrNull(ImportParamSchema, new URL(request.url).searchParams.get("import"));
  const report = importId ? await catalogueReport(context.get(appContext).db, importId) : null;
  return { report, template: catalogueCsvTemplate() };
}

type Notice = { text: string; tone?: "success" | "info" | "error" };

/** What the report's banner says about this browser's part: sending, done (the page may close), or some files to send again. */
function sentText(sending: boolean, sent: number, failed: number): string {
  if (sending) return `Uploading the files, ${UPLOADS_AT_ONCE} books at a time. Keep this page open until they are sent.`;
  const after = "The pages are prepared on the server, and this report (or the Preparation page) follows them.";
  if (failed) return `${failed} file(s) could not be sent: try them again below, or add the PDF on the book's page. ${after}`;
  if (sent) return `All files are sent: you may close this page. ${after}`;
  return `${after} A book waiting for its PDF gets it on its own page.`;
}

/** Many books at once: a CSV of their details checked row by row, their files dropped beside it, then created and sent. */
export default function AdminImportBooks({ loaderData }: Route.ComponentProps) {
  const queryClient = useQueryClient();
  const [csv, setCsv] = useState<CatalogueRows | null>(null);
  const [check, setCheck] = useState<CatalogueCheck | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [report, setReport] = useState<CatalogueReport | null>(loaderData.report);
  const [phases, setPhases] = useState<Record<number, UploadPhase>>({});
  const [sending, setSending] = useState(false);
  const jobs = useRef(new Map<number, BookFiles>());
  const abort = useRef(new AbortController());

  const match = useMemo(() => (check ? matchFiles(check.rows, files) : null), [check, files]);

  async function pickCsv(picked: File | undefined) {
    setNotice(null);
    setCheck(null);
    if (!picked) return;
    const read = await readCsvFile(picked, MAX_CATALOGUE_ROWS, "books");
    if (!read.ok) return setNotice({ text: read.message });
    setCsv(read.file);
    setBusy("Checking the rows...");
    try {
      setCheck(await checkCatalogue(read.file));
    } catch (error) {
      setNotice({ text: (error as Error).message });
    } finally {
      setBusy(null);
    }
  }

  function addFiles(added: File[]) {
    // A file dropped again under the same name replaces the one before.
    const keys = new Set(added.map((file) => fileKey(file.name)));
    setFiles((before) => [...before.filter((file) => !keys.has(fileKey(file.name))), ...added]);
  }

  function setPhase(row: number, phase: UploadPhase) {
    setPhases((before) => ({ ...before, [row]: phase }));
  }

  async function send(list: BookFiles[], importId: string) {
    setSending(true);
    for (const job of list) setPhase(job.row, { kind: "queued" });
    await inPool(list, UPLOADS_AT_ONCE, async (job) => {
      await uploadBookFiles(job, abort.current.signal, (phase) => setPhase(job.row, phase));
      await queryClient.invalidateQueries({ queryKey: reportKey(importId) });
    });
    setSending(false);
    await queryClient.invalidateQueries({ queryKey: reportKey(importId) });
  }

  async function start() {
    if (!csv || !match) return;
    setNotice(null);
    setBusy("Creating the books...");
    try {
      const created = await createCatalogue(csv);
      const first = await fetchReport(created.importId);
      queryClient.setQueryData(reportKey(created.importId), first);
      setReport(first);
      window.history.replaceState(null, "", `?import=${created.importId}`);
      const byRow = new Map(match.rows.map((row) => [row.row, row]));
      for (const book of created.books) {
        const found = byRow.get(book.row);
        if (found?.pdf) jobs.current.set(book.row, { row: book.row, bookId: book.bookId, pdf: found.pdf, cover: found.cover });
      }
      setBusy(null);
      await send([...jobs.current.values()], created.importId);
    } catch (error) {
      if (error instanceof ApiError && error.body && typeof error.body === "object" && "rows" in error.body)
        setCheck(error.body.rows as CatalogueCheck);
      setNotice({ text: (error as Error).message });
      setBusy(null);
    }
  }

  const retry = (row: number) => {
    const job = jobs.current.get(row);
    if (job && report) void send([job], report.id);
  };

  const failed = Object.values(phases).filter((phase) => phase.kind === "failed").length;
  const blocked = !check || check.invalid > 0 || (match?.ambiguous.length ?? 0) > 0 || busy !== null;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Import a Catalogue"
        description="Many books at once: a CSV file of their details, with their PDFs and covers. Every row is checked before anything is saved."
        actions={<CsvTemplateLink csv={loaderData.template} fileName="lectern-books-template.csv" />}
      />
      {report ? (
        <div className={`${cardClasses} space-y-4`}>
          <MessageBox tone={sending ? "info" : "success"} text={sentText(sending, jobs.current.size, failed)} />
          <CatalogueReportView initial={report} phases={phases} sending={sending} onRetry={sending ? null : retry} />
        </div>
      ) : (
        <>
          <div className={`${cardClasses} space-y-4`}>
            <CsvFileField id="catalogue-csv" label="1. The CSV file" helpId="catalogue-csv-help" disabled={busy !== null} onPick={pickCsv}>
              <p id="catalogue-csv-help" className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                Columns: {CATALOGUE_CSV_COLUMNS.map((column) => column).join(", ")}. Title, author1 and pdfFile are needed; gradeLevel is 1
                to 12; a row without a coverFile gets its PDF's first page as its cover. At most {MAX_CATALOGUE_ROWS} rows.
              </p>
            </CsvFileField>
            <div>
              <p className="mb-1 text-sm font-medium">2. The PDFs and covers</p>
              <FilesDrop
                disabled={busy !== null}
                onFiles={addFiles}
                onRefused={(names) => setNotice({ text: `Not a PDF or an image, left out: ${names.join(", ")}` })}
              />
            </div>
            <BusyLine busy={busy} />
            {check && match && <MatchSummary match={match} total={check.rows.length} />}
            {notice && <MessageBox text={notice.text} tone={notice.tone} />}
            {check && (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-sm">
                  {check.invalid
                    ? `${check.invalid} of ${check.rows.length} rows have problems: fix them in the file and choose it again. Nothing is saved until every row is right.`
                    : `${check.rows.length} rows are right.`}
                </p>
                <Button onClick={start} disabled={blocked}>
                  {`Create ${check.rows.length} books and upload their files`}
                </Button>
              </div>
            )}
          </div>
          {check && match && (
            <div className={cardClasses}>
              <CataloguePreview check={check} match={match} />
            </div>
          )}
        </>
      )}
    </div>
  );
}
