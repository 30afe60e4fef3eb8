/**
 * A number field of a posted form, as the API's JSON body would carry it: a number for a numeric
 * entry, else the text itself (or "" when the field is missing), so the zod schema that checks the
 * API's body answers with its own message.
 */
export function formNumber(value: FormDataEntryValue | null): number | string {
  if (typeof value !== "string") return "";
  return value.trim() === "" ? value : Number(value);
}

/** A message under a form: a success, or (no tone) an error in the spec's colours. */
export type Notice = { text: string; tone?: "success" };
