/** The README.md inside each export's ZIP (docs/decisions/0044): what each file holds, and what is not in it. */

const CSV_NOTE =
  "The CSV files are UTF-8 with a byte-order mark (spreadsheets open them as they are); times are UTC in ISO 8601, days are YYYY-MM-DD.";

const NOT_INCLUDED = [
  "## What is not in this export",
  "",
  "- Passwords (only a one-way hash is kept, and it is never exported), one-time codes and session tokens.",
  "- The books themselves: their pages belong to the publisher.",
  "- Highlights carry at most 200 characters of the book's text each, as the reader's own “Export notes” does.",
];

export function schoolReadme(school: { name: string; slug: string }, at: number): string {
  return [
    `# Lectern data export: ${school.name}`,
    "",
    `Prepared on ${new Date(at).toISOString()} for the school \`${school.slug}\`.`,
    "",
    "## Files",
    "",
    "- `school.csv`: the school's record (name, address, contact, principal, limits, total sign-ins).",
    "- `licences.csv`: the school's licences: which book, from and until when, how many seats.",
    "- `teachers.csv`: the school's teachers: name, e-mail, mobile, coordinator, disabled, last day active, reading settings, registration time.",
    "- `sign-ins.csv`: each teacher sign-in kept (time and teacher).",
    "- `reading-usage.csv`: per day, teacher and book, the pages read and the reading time in seconds.",
    "- `school-usage-daily.csv`: the school's daily totals (active teachers, books opened, pages, reading time); no teacher named.",
    "- `notes/<teacher id>-<name>/<book id>-<title>.md`: each teacher's bookmarks, highlights and notes in a book, in the same Markdown as the reader's “Export notes”.",
    "",
    CSV_NOTE,
    "",
    ...NOT_INCLUDED,
    "",
  ].join("\n");
}

export function teacherReadme(teacher: { name: string; school: string }, at: number): string {
  return [
    `# Lectern: what is held about ${teacher.name}`,
    "",
    `Prepared on ${new Date(at).toISOString()} at ${teacher.school}.`,
    "",
    "## Files",
    "",
    "- `account.csv`: your account: name, e-mail, mobile, coordinator, disabled, last day active, reading settings, registration time.",
    "- `sign-ins.csv`: each time you signed in.",
    "- `devices.csv`: the devices you are signed in on now (browser and system, when signed in, last seen).",
    "- `reading-usage.csv`: per day and book, the pages you read and your reading time in seconds.",
    "- `favourites.csv`: the books you starred.",
    "- `reading-progress.csv`: the page you were on in each book.",
    "- `notes/<book id>-<title>.md`: your bookmarks, highlights and notes in each book, as the reader's “Export notes” writes them.",
    "",
    CSV_NOTE,
    "",
    ...NOT_INCLUDED,
    "",
  ].join("\n");
}
