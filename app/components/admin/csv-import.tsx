import type { ReactNode } from "react";
import { fileInputClasses } from "../ui/field.tsx";
import { FieldError, invalidProps } from "../ui/field-error.tsx";
import { Spinner } from "../ui/spinner.tsx";

/** The header's link that downloads an import's CSV template. */
export function CsvTemplateLink({ csv, fileName }: { csv: string; fileName: string }) {
  return (
    <a
      href={`data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`}
      download={fileName}
      className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
    >
      Download CSV template
    </a>
  );
}

/**
 * An import's CSV file input under its label, marked with the refusal about the file's rows when
 * there is one; `helpId` names the hint that describes it, `children` stand under it.
 */
export function CsvFileField({
  id,
  label = "CSV file",
  error = null,
  helpId,
  disabled,
  onPick,
  children,
}: {
  id: string;
  label?: string;
  error?: string | null;
  helpId?: string;
  disabled: boolean;
  onPick: (file: File | undefined) => void;
  children?: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept=".csv,text/csv"
        className={fileInputClasses}
        onChange={(e) => onPick(e.target.files?.[0])}
        disabled={disabled}
        {...invalidProps(id, error, helpId)}
      />
      <FieldError inputId={id} message={error} className="mt-2" />
      {children}
    </div>
  );
}

/** What an import is busy with (checking, saving), beside a spinner; nothing when it is idle. */
export function BusyLine({ busy, className = "" }: { busy: string | null; className?: string }) {
  if (!busy) return null;
  return (
    <p className={`${className} flex items-center gap-2 text-sm text-indigo-700 dark:text-indigo-300`.trim()} role="status">
      <Spinner label={busy} className="h-4 w-4" /> {busy}
    </p>
  );
}
