/** A select's options: one per key of `labels`, showing its label (or, for a list, each value as it is). */
export function Options({ labels }: { labels: Readonly<Record<string, string>> | readonly string[] }) {
  const entries = Array.isArray(labels) ? labels.map((value) => [value, value] as const) : Object.entries(labels);
  return entries.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}

/** The grades a book can be for, as the catalogue names them: Standard 1 to 12. */
export function GradeOptions() {
  return Array.from({ length: 12 }, (_, i) => String(i + 1)).map((grade) => (
    <option key={grade} value={grade}>
      Standard {grade}
    </option>
  ));
}
