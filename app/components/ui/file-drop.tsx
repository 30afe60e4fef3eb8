import { type DragEvent, type ReactNode, useState } from "react";
import { formatFileSize } from "../../lib/format-size.ts";

/** Whether a file matches an accept list of MIME types ("image/png", "image/*") and extensions (".pdf"). */
export function fileAccepted(file: { name: string; type: string }, accept: readonly string[]): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.some((rule) => {
    const wanted = rule.trim().toLowerCase();
    if (wanted.startsWith(".")) return name.endsWith(wanted);
    if (wanted.endsWith("/*")) return type.startsWith(wanted.slice(0, -1));
    return type === wanted;
  });
}

const zone =
  "relative flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-5 text-center text-sm transition-colors focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/30";
const idle = "border-slate-300 bg-white hover:border-indigo-400 dark:border-slate-700 dark:bg-slate-900";
const over = "border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40";

/**
 * A file picker that is also a drop zone. The real <input type=file> stays (visually hidden, in
 * the tab order: Enter or Space opens the browser's picker, and its focus rings the zone); its name
 * is the visible label, its description the chosen file's name and size (or `hint`). A dropped or
 * picked file must match `accept` and `maxBytes` (a drop skips the browser's own accept filter),
 * else `onError` hears `typeError` or `sizeError`.
 */
export function FileDrop({
  id,
  label,
  accept,
  maxBytes,
  typeError,
  sizeError,
  hint,
  chosen,
  disabled = false,
  onFile,
  onError,
}: {
  id: string;
  label: string;
  accept: readonly string[];
  maxBytes?: number;
  typeError: string;
  sizeError?: string;
  hint: ReactNode;
  /** What to say about the file chosen (its name and size are added), or null when none is. */
  chosen: { name: string; size: number; detail?: string } | null;
  disabled?: boolean;
  onFile: (file: File) => void;
  onError: (message: string) => void;
}) {
  const [dragging, setDragging] = useState(false);

  function take(file: File | undefined) {
    if (!file || disabled) return;
    if (!fileAccepted(file, accept)) return onError(typeError);
    if (maxBytes !== undefined && file.size > maxBytes) return onError(sizeError ?? typeError);
    onFile(file);
  }

  function dragOver(event: DragEvent<HTMLLabelElement>) {
    // Without this the browser would open the file instead of dropping it here.
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? "none" : "copy";
    if (!disabled) setDragging(true);
  }

  function dragLeave(event: DragEvent<HTMLLabelElement>) {
    // Moving over the zone's own children is still over the zone.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
  }

  function drop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files[0]);
  }

  const labelId = `${id}-label`;
  const statusId = `${id}-status`;
  return (
    <div className="space-y-1.5">
      <label id={labelId} htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <label
        htmlFor={id}
        data-dragging={dragging || undefined}
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={dragLeave}
        onDrop={drop}
        className={`${zone} ${dragging ? over : idle} ${disabled ? "cursor-not-allowed opacity-60" : ""}`}
      >
        <input
          id={id}
          type="file"
          accept={accept.join(",")}
          disabled={disabled}
          aria-labelledby={labelId}
          aria-describedby={statusId}
          className="sr-only"
          onChange={(event) => {
            take(event.target.files?.[0]);
            // The same file picked again is a new choice.
            event.target.value = "";
          }}
        />
        <svg viewBox="0 0 24 24" className="h-6 w-6 text-slate-400" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
          <path d="M12 16V4m0 0L7 9m5-5l5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="text-slate-700 dark:text-slate-200" aria-hidden="true">
          {dragging ? (
            "Drop the file here"
          ) : (
            <>
              Drag a file here, or <span className="font-semibold text-indigo-700 underline dark:text-indigo-300">choose one</span>
            </>
          )}
        </span>
        <span id={statusId} className="text-xs text-slate-500 dark:text-slate-400">
          {chosen ? `${chosen.name} (${formatFileSize(chosen.size)})${chosen.detail ? `, ${chosen.detail}` : ""}` : hint}
        </span>
      </label>
    </div>
  );
}
