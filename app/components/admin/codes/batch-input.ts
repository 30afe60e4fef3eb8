import { formIds, formText, formWhole } from "../book/form-input.ts";

/**
 * The new batch form's fields (app/components/admin/codes/batch-form.tsx) as the create command
 * takes them (POST /api/codes/batches's body): the licence's days or its last day, as the radio
 * picked; empty seats for no limit; an empty redeem-by for none. The command checks each with the
 * API's own schema, so a refusal names the field the form marks.
 */
export function batchInput(form: FormData) {
  const length = formText(form, "length");
  const seats = formText(form, "seats").trim();
  const redeemBy = formText(form, "redeemBy").trim();
  const offlineAllowed = formText(form, "offlineAllowed") === "true";
  return {
    label: formText(form, "label"),
    bookIds: formIds(form, "bookIds"),
    ...(length === "endsOn" ? { endsOn: formText(form, "endsOn").trim() } : { days: formWhole(form, "days") }),
    seats: seats === "" ? null : formWhole(form, "seats"),
    offlineAllowed,
    // The days a book may be kept offline mean nothing when offline reading is not allowed.
    ...(offlineAllowed ? { offlineDays: formWhole(form, "offlineDays") } : {}),
    count: formWhole(form, "count"),
    ...(redeemBy ? { redeemBy } : {}),
  };
}
