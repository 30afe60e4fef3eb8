/**
 * The spec's message styles: texts mentioning 'Development Mode' are information (blue),
 * 'Testing' a warning (yellow), anything else an error (red).
 */
export function messageTone(text: string): "info" | "warning" | "error" {
  if (text.includes("Development Mode")) return "info";
  if (text.includes("Testing")) return "warning";
  return "error";
}

const toneClasses = {
  info: "border-blue-200 bg-blue-50 text-blue-800 dark:border-blue-900 dark:bg-blue-950/50 dark:text-blue-200",
  warning: "border-yellow-200 bg-yellow-50 text-yellow-800 dark:border-yellow-900 dark:bg-yellow-950/50 dark:text-yellow-200",
  error: "border-red-200 bg-red-50 text-red-700 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200",
  success: "border-green-200 bg-green-50 text-green-800 dark:border-green-900 dark:bg-green-950/50 dark:text-green-200",
};

export function MessageBox({ text, tone }: { text: string; tone?: keyof typeof toneClasses }) {
  const resolved = tone ?? messageTone(text);
  return (
    <div
      role={resolved === "error" ? "alert" : "status"}
      data-tone={resolved}
      className={`rounded-lg border px-3 py-2.5 text-sm ${toneClasses[resolved]}`}
    >
      {text}
    </div>
  );
}
