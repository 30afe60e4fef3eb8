import { useId, useRef } from "react";
import { OFFLINE_DAYS_MAX, OFFLINE_DAYS_MIN } from "#shared/rules/offline.ts";
import { inputClasses } from "../ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../ui/field-error.tsx";

/**
 * A new licence's terms as the assign screens take them: the days (YYYY-MM-DD; no end: empty), the
 * readers at once (empty: no limit), and whether teachers may keep the book offline, for how many days.
 */
export interface LicenceTerms {
  startsOn: string;
  endsOn: string;
  seats: string;
  offlineAllowed: boolean;
  offlineDays: string;
}

/** The terms as form fields for the page's action: empty end and seats sent as empty (no end, no limit). */
export function termsFields(terms: LicenceTerms): Record<string, string> {
  return {
    startsOn: terms.startsOn,
    endsOn: terms.endsOn,
    seats: terms.seats,
    offlineAllowed: String(terms.offlineAllowed),
    offlineDays: terms.offlineDays,
  };
}

/**
 * The licence the assign screens give: from, until (default: the current school year, 1 August to
 * 31 July) and how many readers at once (default: no limit). Pairs that have a licence already keep
 * theirs: renew or change them on the Licences page. `refused`, the last assign's answer, marks
 * the term it refused (an end before the start, too many seats).
 */
export function LicenceTermsFields({
  value,
  onChange,
  refused,
}: {
  value: LicenceTerms;
  onChange: (next: LicenceTerms) => void;
  refused?: unknown;
}) {
  const id = useId();
  const errors = {
    from: fieldError(refused, "startsOn"),
    until: fieldError(refused, "endsOn"),
    seats: fieldError(refused, "seats"),
    "offline-days": fieldError(refused, "offlineDays"),
  };
  const fieldset = useRef<HTMLFieldSetElement>(null);
  useFocusInvalid(fieldset, refused);
  const set = (key: keyof LicenceTerms) => (event: { target: { value: string } }) => onChange({ ...value, [key]: event.target.value });
  return (
    <fieldset ref={fieldset} className="flex flex-wrap items-end gap-3">
      <legend className="mb-2 text-sm font-semibold">Licence</legend>
      <label htmlFor={`${id}-from`} className="text-sm">
        <span className="mb-1 block">From</span>
        <input
          id={`${id}-from`}
          type="date"
          required
          value={value.startsOn}
          onChange={set("startsOn")}
          className={`${inputClasses} w-44`}
          {...invalidProps(`${id}-from`, errors.from)}
        />
      </label>
      <label htmlFor={`${id}-until`} className="text-sm">
        <span className="mb-1 block">Until (empty: no end)</span>
        <input
          id={`${id}-until`}
          type="date"
          value={value.endsOn}
          min={value.startsOn}
          onChange={set("endsOn")}
          className={`${inputClasses} w-44`}
          {...invalidProps(`${id}-until`, errors.until)}
        />
      </label>
      <label htmlFor={`${id}-seats`} className="text-sm">
        <span className="mb-1 block">Readers at once (empty: no limit)</span>
        <input
          id={`${id}-seats`}
          inputMode="numeric"
          value={value.seats}
          onChange={(event) => onChange({ ...value, seats: event.target.value.replace(/\D/g, "").slice(0, 6) })}
          className={`${inputClasses} w-32`}
          {...invalidProps(`${id}-seats`, errors.seats)}
        />
      </label>
      <OfflineTermsFields
        id={id}
        value={{ allowed: value.offlineAllowed, days: value.offlineDays }}
        onChange={(next) => onChange({ ...value, offlineAllowed: next.allowed, offlineDays: next.days })}
        error={errors["offline-days"]}
      />
      {(["from", "until", "seats"] as const).map((key) => (
        <FieldError key={key} inputId={`${id}-${key}`} message={errors[key]} className="w-full" />
      ))}
    </fieldset>
  );
}

/** Whether teachers may keep a licence's books offline, and for how many days. */
export interface OfflineTerms {
  allowed: boolean;
  /** As typed: digits only, at most two. */
  days: string;
}

/**
 * The offline terms' two fields, for every screen that sets them (a new licence's terms, the
 * Licences page's bulk change, a batch of codes): the box, and the days, which are off while the
 * box is. `named` posts them as `offlineAllowed` ("true" when ticked, absent when not) and
 * `offlineDays`; `error` is a refusal of the days. Fragments, so the parent's layout places them.
 */
export function OfflineTermsFields({
  id,
  value,
  onChange,
  error,
  named = false,
  strong = false,
}: {
  id: string;
  value: OfflineTerms;
  onChange: (next: OfflineTerms) => void;
  error?: string | null;
  named?: boolean;
  /** Labels in the weight of a form whose other labels are medium. */
  strong?: boolean;
}) {
  return (
    <>
      <label htmlFor={`${id}-offline`} className={`flex items-center gap-2 self-center text-sm ${strong ? "font-medium" : ""}`}>
        <input
          id={`${id}-offline`}
          type="checkbox"
          name={named ? "offlineAllowed" : undefined}
          value="true"
          checked={value.allowed}
          onChange={(event) => onChange({ ...value, allowed: event.target.checked })}
          className="h-4 w-4"
        />
        Offline reading allowed
      </label>
      <label htmlFor={`${id}-offline-days`} className="block text-sm">
        <span className={`mb-1 block ${strong ? "font-medium" : ""}`}>Days a book may be kept offline</span>
        <input
          id={`${id}-offline-days`}
          type="number"
          name={named ? "offlineDays" : undefined}
          min={OFFLINE_DAYS_MIN}
          max={OFFLINE_DAYS_MAX}
          disabled={!value.allowed}
          value={value.days}
          onChange={(event) => onChange({ ...value, days: event.target.value.replace(/\D/g, "").slice(0, 2) })}
          className={`${inputClasses} w-28 disabled:opacity-50`}
          {...invalidProps(`${id}-offline-days`, error)}
        />
      </label>
      <FieldError inputId={`${id}-offline-days`} message={error} className="w-full" />
    </>
  );
}
