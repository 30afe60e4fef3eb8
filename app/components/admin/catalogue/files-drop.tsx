import { type DragEvent, useState } from "react";
import { fileAccepted } from "../../ui/file-drop.tsx";

const ACCEPT = [".pdf", "application/pdf", "image/jpeg", "image/png", "image/webp"];

/**
 * Many files at once, picked or dropped (a folder's contents), for the import's rows: PDFs and
 * covers together. Files of other kinds are named back through `onRefused`, not kept.
 */
export function FilesDrop({
  disabled,
  onFiles,
  onRefused,
}: {
  disabled: boolean;
  onFiles: (files: File[]) => void;
  onRefused: (names: string[]) => void;
}) {
  const [dragging, setDragging] = useState(false);

  function take(list: FileList | null) {
    if (!list || disabled) return;
    const files = [...list];
    const refused = files.filter((file) => !fileAccepted(file, ACCEPT)).map((file) => file.name);
    if (refused.length) onRefused(refused);
    onFiles(files.filter((file) => fileAccepted(file, ACCEPT)));
  }

  function over(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? "none" : "copy";
    if (!disabled) setDragging(true);
  }

  return (
    <label
      htmlFor="catalogue-files"
      data-dragging={dragging || undefined}
      onDragEnter={over}
      onDragOver={over}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        take(event.dataTransfer.files);
      }}
      className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm transition-colors focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/30 ${
        dragging ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40" : "border-slate-300 hover:border-indigo-400 dark:border-slate-700"
      } ${disabled ? "cursor-not-allowed opacity-60" : ""}`}
    >
      <input
        id="catalogue-files"
        type="file"
        multiple
        accept={ACCEPT.join(",")}
        disabled={disabled}
        aria-describedby="catalogue-files-help"
        className="sr-only"
        onChange={(event) => {
          take(event.target.files);
          event.target.value = "";
        }}
      />
      <span className="font-medium text-slate-700 dark:text-slate-200">
        {dragging ? (
          "Drop the files here"
        ) : (
          <>
            Drag the PDFs and covers here, or <span className="text-indigo-700 underline dark:text-indigo-300">choose them</span>
          </>
        )}
      </span>
      <span id="catalogue-files-help" className="text-xs text-slate-500 dark:text-slate-400">
        Matched to the rows by file name (capital letters or not). PDFs up to 1 GB; covers JPEG, PNG or WebP up to 2 MB.
      </span>
    </label>
  );
}
