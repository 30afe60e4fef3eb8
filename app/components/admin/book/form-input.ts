// The admin book forms' fields as the API's JSON bodies carry them, for the actions to check with
// the API's own schemas (workers/books/input.ts): same values, so the same messages.

/** A text field of a form; missing (or a file) reads as "". */
export function formText(form: FormData, key: string): string {
  const value = form.get(key);
  return typeof value === "string" ? value : "";
}

/** A whole number as typed, else the text itself, so the command's schema refuses it with its own sentence. */
export function formWhole(form: FormData, key: string): number | string {
  const text = formText(form, key).trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : text;
}

/** The edit form's fields: every one sent, blank optional text clearing it (as the page sent them). */
export function bookUpdateInput(form: FormData) {
  const grade = formText(form, "gradeLevel");
  return {
    title: formText(form, "title"),
    author1: formText(form, "author1"),
    author2: formText(form, "author2") || null,
    isbn: formText(form, "isbn") || null,
    subject: formText(form, "subject") || null,
    gradeLevel: grade ? Number(grade) : null,
    description: formText(form, "description"),
  };
}

/** The add form's fields: trimmed, blank optional ones left out (as the page sent them). */
export function bookCreateInput(form: FormData) {
  const optional = (key: string) => {
    const value = formText(form, key).trim();
    return value ? { [key]: value } : {};
  };
  const grade = formText(form, "gradeLevel");
  return {
    title: formText(form, "title").trim(),
    author1: formText(form, "author1").trim(),
    ...optional("author2"),
    ...optional("isbn"),
    ...optional("subject"),
    ...optional("description"),
    gradeLevel: grade ? Number(grade) : null,
    // The page's script sends it when a PDF follows (workers/books/input.ts).
    ...(formText(form, "provisional") === "true" ? { provisional: true } : {}),
  };
}

/**
 * A licence's terms as the assign screens post them (app/components/admin/licence-terms.tsx): an
 * empty end is no end, empty seats no limit; each absent field (an older page) leaves its default.
 * Each is passed on alone, so an end sent without a start is checked against today's start
 * (workers/licences/input.ts), never dropped.
 */
export function licenceTermsInput(form: FormData) {
  const seats = formText(form, "seats").trim();
  const offlineDays = formText(form, "offlineDays").trim();
  return {
    ...(form.has("startsOn") ? { startsOn: formText(form, "startsOn") } : {}),
    ...(form.has("endsOn") ? { endsOn: formText(form, "endsOn") || null } : {}),
    ...(form.has("seats") ? { seats: seats ? Number(seats) : null } : {}),
    ...(form.has("offlineAllowed") ? { offlineAllowed: formText(form, "offlineAllowed") === "true" } : {}),
    ...(form.has("offlineDays") ? { offlineDays: offlineDays ? Number(offlineDays) : offlineDays } : {}),
  };
}

/** Ids a form lists under one name (a field per id, or one field of comma-separated ids), as numbers. */
export function formIds(form: FormData, key: string): number[] {
  return form
    .getAll(key)
    .flatMap((value) => (typeof value === "string" ? value.split(",") : []))
    .filter((value) => value.trim() !== "")
    .map(Number);
}
