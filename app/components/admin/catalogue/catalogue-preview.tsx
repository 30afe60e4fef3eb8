import type { FileMatch } from "#shared/catalogue-files.ts";
import { rowList } from "#shared/catalogue-files.ts";
import { formatFileSize } from "../../../lib/format-size.ts";
import { rowClasses, TableHead, tableClasses } from "../admin-page.tsx";
import type { CatalogueCheck } from "./catalogue-calls.ts";

const ok = "text-green-700 dark:text-green-300";
const missing = "text-amber-700 dark:text-amber-300";

/** The checked rows with their problems and the files matched to them, before anything is created. */
export function CataloguePreview({ check, match }: { check: CatalogueCheck; match: FileMatch<File> }) {
  const filesOf = new Map(match.rows.map((row) => [row.row, row]));
  return (
    <div className="max-h-[32rem] overflow-auto">
      <table className={tableClasses}>
        <TableHead columns={["Row", "Title", "PDF", "Cover", "Problems"]} pad="pr-3" />
        <tbody>
          {check.rows.map((row) => {
            const files = filesOf.get(row.row);
            return (
              <tr key={row.row} className={`${rowClasses} align-top`}>
                <td className="py-2 pr-3 tabular-nums">{row.row}</td>
                <td className="py-2 pr-3 font-medium">{row.title || "—"}</td>
                <td className="py-2 pr-3">
                  <FileCell name={row.pdfFile} file={files?.pdf ?? null} />
                </td>
                <td className="py-2 pr-3">
                  {row.coverFile ? (
                    <FileCell name={row.coverFile} file={files?.cover ?? null} />
                  ) : (
                    <span className="text-slate-500">From page 1</span>
                  )}
                </td>
                <td className="py-2 pr-3 text-red-700 dark:text-red-300">
                  {row.problems.map((problem) => (
                    <p key={`${problem.field}:${problem.message}`}>
                      <span className="font-mono text-xs">{problem.field}</span>: {problem.message}
                    </p>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function FileCell({ name, file }: { name: string; file: File | null }) {
  if (!name) return <span>—</span>;
  return (
    <span className="break-all">
      {name} {file ? <span className={ok}>✓ {formatFileSize(file.size)}</span> : <span className={missing}>not dropped yet</span>}
    </span>
  );
}

/** What the drop still lacks, and what it holds that no row names. */
export function MatchSummary({ match, total }: { match: FileMatch<File>; total: number }) {
  const lines: { text: string; tone: string }[] = [];
  const pdfs = total - match.missingPdf.length;
  lines.push({ text: `${pdfs} of ${total} PDFs dropped.`, tone: pdfs === total ? ok : "" });
  if (match.missingPdf.length) lines.push({ text: `No PDF yet for ${rowList(match.missingPdf)}.`, tone: missing });
  if (match.missingCover.length)
    lines.push({ text: `The cover named in ${rowList(match.missingCover)} is not dropped yet.`, tone: missing });
  if (match.unmatched.length)
    lines.push({ text: `No row names ${match.unmatched.map((file) => file.name).join(", ")}: not uploaded.`, tone: missing });
  if (match.ambiguous.length)
    lines.push({
      text: `Dropped twice under one name (${match.ambiguous.join("; ")}): take one away.`,
      tone: "text-red-700 dark:text-red-300",
    });
  return (
    <div className="space-y-1 text-sm" role="status">
      {lines.map((line) => (
        <p key={line.text} className={line.tone}>
          {line.text}
        </p>
      ))}
    </div>
  );
}
