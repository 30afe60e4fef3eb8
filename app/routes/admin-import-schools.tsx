import { z } from "zod";
import { schoolCsvTemplate } from "#shared/csv.ts";
import {
  importSchoolsCommand,
  saveGeneratedSchoolsCommand,
  updateDuplicatesCommand,
  validateImportCommand,
} from "../../workers/schools/commands.ts";
import { type ImportValidation, MAX_IMPORT_ROWS } from "../../workers/schools/import-rows.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { BusyLine, CsvFileField, CsvTemplateLink } from "../components/admin/csv-import.tsx";
import { useRowsImport } from "../components/admin/rows-import.ts";
import { ImportPreview, type SaveIntent } from "../components/admin/school/import-preview.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { readIntent } from "../lib/json-intent.server.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-import-schools";

export const meta: Route.MetaFunction = () => [{ title: "Import Schools · Lectern Admin" }];

export function loader() {
  return { maxRows: MAX_IMPORT_ROWS };
}

const IntentSchema = z.object({ intent: z.enum(["validate", "bulk", "save-generated", "update-duplicates"]) });

/** As the API's validate-import, bulk, save-generated and update-duplicates: the same checks, all or nothing, audited. */
export async function action({ request, context }: Route.ActionArgs) {
  // The file is read in the browser; its rows come as JSON, with what to do with them.
  // A refusal carries the rows' own errors when the command checked them (the preview shows them).
  const rows = { rows: undefined as ImportValidation | undefined };
  const read = await readIntent(request, IntentSchema);
  if (!read.ok) return reply(read, rows);
  const { intent, body } = read.value;
  if (intent === "validate") {
    const outcome = await runCommand({ context, request }, validateImportCommand, body);
    return reply(outcome, rows, (validation) => ({ validation }));
  }
  if (intent === "update-duplicates") {
    const outcome = await runCommand({ context, request }, updateDuplicatesCommand, body);
    return reply(outcome, rows, ({ updated }) => ({ updated }));
  }
  const outcome = await runCommand(
    { context, request },
    intent === "save-generated" ? saveGeneratedSchoolsCommand : importSchoolsCommand,
    body,
  );
  return reply(outcome, rows, ({ created }) => ({ created }));
}

/** Schools from a CSV file: validated row by row on the server, previewed, then saved all or nothing. */
export default function AdminImportSchools({ loaderData }: Route.ComponentProps) {
  const { maxRows } = loaderData;
  const { validation, message, busy, fileError, pick, save } = useRowsImport<typeof action, ImportValidation>({
    maxRows,
    noun: "schools",
    saved: (answer) => ("updated" in answer ? `${answer.updated} school(s) updated.` : `${answer.created} school(s) added.`),
    refusedSave: "Nothing was saved.",
  });

  // Updating sends the duplicates only (known by their row numbers), each still with its own number.
  function saveRows(intent: SaveIntent, busyLabel: string) {
    const duplicates = new Set(validation?.rows.filter((row) => row.status === "duplicate").map((row) => row.row));
    save(intent, busyLabel, (file) => {
      const keep = (_: unknown, i: number) => intent !== "update-duplicates" || duplicates.has(file.rowNumbers[i] ?? 0);
      return { rows: file.rows.filter(keep), rowNumbers: file.rowNumbers.filter(keep) };
    });
  }

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Import Schools"
        description="Add hundreds of schools from a CSV file. Every row is checked before anything is saved."
        actions={<CsvTemplateLink csv={schoolCsvTemplate()} fileName="lectern-schools-template.csv" />}
      />
      <div className={cardClasses}>
        <CsvFileField id="import-file" error={fileError} disabled={busy !== null} onPick={pick} />
        <BusyLine busy={busy} className="mt-3" />
      </div>
      {message && <MessageBox text={message.text} tone={message.tone} />}
      {validation && <ImportPreview validation={validation} busy={busy !== null} onSave={saveRows} />}
    </div>
  );
}
