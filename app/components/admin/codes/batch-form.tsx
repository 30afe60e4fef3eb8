import { useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { BATCH_MAX_CODES } from "#shared/rules/code-format.ts";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses } from "../admin-page.tsx";
import { type BookOption, BookPicker } from "../book-picker.tsx";
import { type OfflineTerms, OfflineTermsFields } from "../licence-terms.tsx";

const labelText = "mb-1 block text-sm font-medium";
const hintText = "mt-1 text-xs text-slate-500 dark:text-slate-400";

/**
 * A new batch: its label (the bookstore or channel), the books its codes grant, the licence each
 * code gives (days from the redemption or a fixed last day; readers at once, empty for no limit;
 * offline reading), how many codes and until when they redeem. Posted to the page's action, which
 * runs the create command; `refused` (its answer) marks the field it refused.
 */
export function BatchForm({ initialBooks, today, refused }: { initialBooks: BookOption[]; today: string; refused: unknown }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [books, setBooks] = useState<Map<number, string>>(new Map());
  const [length, setLength] = useState<"days" | "endsOn">("days");
  const [offline, setOffline] = useState<OfflineTerms>({ allowed: true, days: String(OFFLINE_DAYS_DEFAULT) });
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  const error = (name: string) => fieldError(refused, name);
  const errors = {
    label: error("label"),
    books: error("bookIds"),
    days: error("days"),
    endsOn: error("endsOn"),
    seats: error("seats"),
    offlineDays: error("offlineDays"),
    count: error("count"),
    redeemBy: error("redeemBy"),
  };
  // A refusal of no one field (a conflict, a failure) shows above the button.
  const general = refused && !Object.values(errors).some(Boolean) ? (refused as { error?: string }).error : null;
  const toggle = (book: BookOption) =>
    setBooks((current) => {
      const next = new Map(current);
      if (!next.delete(book.id)) next.set(book.id, book.title);
      return next;
    });

  return (
    <Form ref={form} method="post" className="max-w-4xl space-y-6">
      <section className={`${cardClasses} space-y-4`} aria-labelledby="batch-books-title">
        <h2 id="batch-books-title" className="font-semibold">
          1. Books
          <span className="font-normal text-slate-600 dark:text-slate-400">
            {books.size ? `: ${[...books.values()].join(", ")}` : " (one, or several for a bundle)"}
          </span>
        </h2>
        {[...books.keys()].map((id) => (
          <input key={id} type="hidden" name="bookIds" value={id} />
        ))}
        <BookPicker initialBooks={initialBooks} picked={new Set(books.keys())} onToggle={toggle} />
        <FieldError inputId="batch-books" message={errors.books} />
      </section>

      <fieldset className={`${cardClasses} space-y-4`}>
        <legend className="float-left mb-2 w-full font-semibold">2. What each code gives</legend>
        <div className="clear-both flex flex-wrap gap-6">
          <div role="radiogroup" aria-labelledby="batch-length-title" className="space-y-2">
            <p id="batch-length-title" className={labelText}>
              Licence
            </p>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="length" value="days" checked={length === "days"} onChange={() => setLength("days")} />
              Days from redemption
            </label>
            <input
              id="batch-days"
              name="days"
              aria-label="Licence days from redemption"
              inputMode="numeric"
              defaultValue="365"
              disabled={length !== "days"}
              className={`${inputClasses} ml-6 w-28`}
              {...invalidProps("batch-days", errors.days)}
            />
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="length" value="endsOn" checked={length === "endsOn"} onChange={() => setLength("endsOn")} />
              Until a fixed last day
            </label>
            <input
              id="batch-ends-on"
              name="endsOn"
              type="date"
              aria-label="Licence's last day"
              min={today}
              disabled={length !== "endsOn"}
              className={`${inputClasses} ml-6 w-44`}
              {...invalidProps("batch-ends-on", errors.endsOn)}
            />
            <FieldError inputId="batch-days" message={errors.days} />
            <FieldError inputId="batch-ends-on" message={errors.endsOn} />
          </div>
          <div>
            <label htmlFor="batch-seats" className={labelText}>
              Readers at once (empty: no limit)
            </label>
            <input
              id="batch-seats"
              name="seats"
              inputMode="numeric"
              className={`${inputClasses} w-32`}
              {...invalidProps("batch-seats", errors.seats)}
            />
            <FieldError inputId="batch-seats" message={errors.seats} className="mt-1" />
          </div>
          <div className="space-y-2">
            <OfflineTermsFields id="batch" named strong value={offline} onChange={setOffline} error={errors.offlineDays} />
          </div>
        </div>
      </fieldset>

      <fieldset className={`${cardClasses} space-y-4`}>
        <legend className="float-left mb-2 w-full font-semibold">3. The batch</legend>
        <div className="clear-both flex flex-wrap gap-6">
          <div>
            <label htmlFor="batch-label" className={labelText}>
              Label
            </label>
            <input
              id="batch-label"
              name="label"
              required
              maxLength={80}
              className={`${inputClasses} w-72`}
              {...invalidProps("batch-label", errors.label, "batch-label-hint")}
            />
            <p id="batch-label-hint" className={hintText}>
              The bookstore or channel selling them, e.g. "City Bookstore, autumn 2026"
            </p>
            <FieldError inputId="batch-label" message={errors.label} className="mt-1" />
          </div>
          <div>
            <label htmlFor="batch-count" className={labelText}>
              Codes
            </label>
            <input
              id="batch-count"
              name="count"
              type="number"
              required
              min={1}
              max={BATCH_MAX_CODES}
              defaultValue={100}
              className={`${inputClasses} w-32`}
              {...invalidProps("batch-count", errors.count, "batch-count-hint")}
            />
            <p id="batch-count-hint" className={hintText}>
              1 to {BATCH_MAX_CODES.toLocaleString("en-US")}
            </p>
            <FieldError inputId="batch-count" message={errors.count} className="mt-1" />
          </div>
          <div>
            <label htmlFor="batch-redeem-by" className={labelText}>
              Redeem by (optional)
            </label>
            <input
              id="batch-redeem-by"
              name="redeemBy"
              type="date"
              min={today}
              className={`${inputClasses} w-44`}
              {...invalidProps("batch-redeem-by", errors.redeemBy, "batch-redeem-by-hint")}
            />
            <p id="batch-redeem-by-hint" className={hintText}>
              The last day a code can be redeemed
            </p>
            <FieldError inputId="batch-redeem-by" message={errors.redeemBy} className="mt-1" />
          </div>
        </div>
      </fieldset>

      {general && <MessageBox text={general} />}
      <Button type="submit" disabled={busy}>
        {busy ? "Making codes..." : "Make codes"}
      </Button>
    </Form>
  );
}
