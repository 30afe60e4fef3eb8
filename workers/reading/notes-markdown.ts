/**
 * A teacher's bookmarks, highlights and notes of one book as Markdown (docs/decisions/0032): the
 * reader's "Export notes" (workers/api/annotations.ts) and the data exports (docs/decisions/0044)
 * write the same file with this one writer.
 */
import type { Annotation } from "../school-object/annotations.ts";

/** How much of each highlight the Markdown export carries. */
export const EXPORT_HIGHLIGHT_CHARS = 200;

/** Why the export leaves the words out: the reading limit reached, or every seat held. */
export type WithheldReason = "limit" | "no-seat";

const EXPORT_WITHHELD: Record<WithheldReason, string> = {
  limit: "(the highlighted text is left out: you have reached the reading limit for this book)",
  "no-seat": "(the highlighted text is left out: every copy of this book is in use at your school)",
};

/** The teacher's annotations as Markdown: notes whole, highlights cut to EXPORT_HIGHLIGHT_CHARS (or left out, and why). */
export function annotationsMarkdown(title: string, annotations: Annotation[], withheld: WithheldReason | null, now = Date.now()): string {
  const day = new Date(now).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  const lines = [`# ${title}: my notes`, "", `Exported from Lectern on ${day}.`];
  if (annotations.length === 0) lines.push("", "You have no bookmarks, highlights or notes in this book yet.");
  const indent = (text: string) => text.replace(/\n/g, "\n  ");
  let page = 0;
  for (const a of annotations) {
    if (a.page !== page) {
      page = a.page;
      lines.push("", `## Page ${page}`, "");
    }
    if (a.kind === "bookmark") lines.push(`- Bookmark${a.label ? `: ${a.label}` : ""}`);
    if (a.kind === "note") lines.push(`- Note: ${indent(a.note ?? "")}`);
    if (a.kind === "highlight") {
      const text = a.text ?? "";
      const quoted = withheld
        ? EXPORT_WITHHELD[withheld]
        : `“${text.length > EXPORT_HIGHLIGHT_CHARS ? `${text.slice(0, EXPORT_HIGHLIGHT_CHARS - 1).trimEnd()}…` : text}”`;
      lines.push(`- Highlight (${a.colour}): ${quoted}`);
      if (a.note) lines.push(`  Note: ${indent(a.note)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** A title or name as a file name's part: lower-case ASCII letters, digits and dashes, at most 60 (or `fallback`). */
export function fileSlug(text: string, fallback: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || fallback
  );
}
