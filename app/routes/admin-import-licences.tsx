import { Link } from "react-router";
import { z } from "zod";
import { csvLines } from "#shared/csv.ts";
import { dayOf, defaultLicenceTerms } from "#shared/rules/licence.ts";
import { importLicencesCommand, validateLicenceImportCommand } from "../../workers/licences/commands.ts";
import { LICENCE_CSV_COLUMNS, type LicenceImportValidation, MAX_LICENCE_IMPORT_ROWS } from "../../workers/licences/import.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { BusyLine, CsvFileField, CsvTemplateLink } from "../components/admin/csv-import.tsx";
import { LicenceImportPreview } from "../components/admin/licence-import-preview.tsx";
import { useRowsImport } from "../components/admin/rows-import.ts";
import { MessageBox } from "../components/ui/message-box.tsx";
import { readIntent } from "../lib/json-intent.server.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-import-licences";

export const meta: Route.MetaFunction = () => [{ title: "Import Licences · Lectern Admin" }];

/** The most rows a file may have, and a template whose example row runs for this school year. */
export function loader() {
  const terms = defaultLicenceTerms(dayOf(Date.now()));
  const example = ["lincoln-high", "978-0-306-40615-7", terms.startsOn, terms.endsOn, 30, "PO-2041", "yes", terms.offlineDays];
  const template = csvLines([[...LICENCE_CSV_COLUMNS], example]);
  return { maxRows: MAX_LICENCE_IMPORT_ROWS, template };
}

const IntentSchema = z.object({ intent: z.enum(["validate", "import"], { error: "Say whether to check or import the file" }) });

/** As POST /api/licences/import/validate and /api/licences/import: the same checks, all rows or none, audited. */
export async function action({ request, context }: Route.ActionArgs) {
  // The file is read in the browser; its rows come as JSON, with what to do with them.
  // A refusal carries the rows' own errors when the command checked them (the preview shows them).
  const rows = { rows: undefined as LicenceImportValidation | undefined };
  const read = await readIntent(request, IntentSchema);
  if (!read.ok) return reply(read, rows);
  const { intent, body } = read.value;
  if (intent === "validate") {
    const outcome = await runCommand({ context, request }, validateLicenceImportCommand, body);
    return reply(outcome, rows, (validation) => ({ validation }));
  }
  const outcome = await runCommand({ context, request }, importLicencesCommand, body);
  return reply(outcome, rows, (imported) => ({ imported }));
}

/** Licences from a CSV file: checked row by row on the server, previewed, then imported all or nothing. */
export default function AdminImportLicences({ loaderData }: Route.ComponentProps) {
  const { maxRows, template } = loaderData;
  const { validation, message, busy, fileError, pick, save } = useRowsImport<typeof action, LicenceImportValidation>({
    maxRows,
    noun: "licences",
    saved: ({ imported }) => {
      if (!imported) return undefined;
      const { created, changed, unchanged } = imported as { created: number; changed: number; unchanged: number };
      const same = unchanged ? ` ${unchanged} were already as the file says.` : "";
      return `${created} licence(s) added and ${changed} changed.${same}`;
    },
  });

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Import Licences"
        description="Add or renew many licences from a CSV file: one row per school and book. Every row is checked before anything is saved."
        actions={<CsvTemplateLink csv={template} fileName="lectern-licences-template.csv" />}
      />
      <div className={`${cardClasses} space-y-3`}>
        <CsvFileField id="licence-file" error={fileError} helpId="licence-file-help" disabled={busy !== null} onPick={pick} />
        <p id="licence-file-help" className="text-sm text-slate-600 dark:text-slate-300">
          Columns: <code>slug</code> (or <code>schoolId</code>), <code>isbn</code> (or <code>bookId</code>), <code>startsOn</code> and{" "}
          <code>endsOn</code> as YYYY-MM-DD (no end: leave it empty), <code>seats</code> (empty for no limit), <code>note</code>, and
          <code>offlineAllowed</code> (yes or no) and <code>offlineDays</code> (1 to 90; either empty: the licence's own, or yes and 14). A
          row for a school and book that have a licence changes it. The{" "}
          <Link to="/admin/licences" className="text-indigo-700 underline dark:text-indigo-300">
            Licences page
          </Link>
          's CSV can be edited and imported back.
        </p>
        <BusyLine busy={busy} />
      </div>
      {message && <MessageBox text={message.text} tone={message.tone} />}
      {validation && <LicenceImportPreview validation={validation} busy={busy !== null} onImport={() => save("import", "Importing...")} />}
    </div>
  );
}
