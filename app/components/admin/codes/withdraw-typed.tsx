import { useEffect, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { FieldError, invalidProps } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses } from "../admin-page.tsx";
import type { RowAnswer } from "../school/ask-first.tsx";

export const WITHDRAW_TYPED_INTENT = "withdraw-typed";

/**
 * "Withdraw a code by typing it": for a code a bookstore reports lost or stolen, read from its card
 * or the CSV (any code, of any batch). A refusal (not a code, unknown, already redeemed or
 * withdrawn) shows at the field, which takes the focus again.
 */
export function WithdrawTyped() {
  const fetcher = useFetcher<RowAnswer>({ key: "withdraw-typed" });
  const posted = useActionData<RowAnswer>();
  const answer = fetcher.data ?? (posted?.intent === WITHDRAW_TYPED_INTENT ? posted : undefined);
  const [code, setCode] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const refused = answer && "error" in answer ? answer.error : null;
  // A withdrawn code is done with: the field empties for the next one.
  useEffect(() => {
    if (!fetcher.data) return;
    if ("message" in fetcher.data) setCode("");
    input.current?.focus();
  }, [fetcher.data]);
  return (
    <section className={cardClasses} aria-labelledby="withdraw-typed-title">
      <h2 id="withdraw-typed-title" className="font-semibold">
        Withdraw a code by typing it
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-600 dark:text-slate-400">
        For a code reported lost or stolen: type it as printed. A redeemed code's licence stays.
      </p>
      <fetcher.Form method="post" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value={WITHDRAW_TYPED_INTENT} />
        <label htmlFor="withdraw-code" className="w-96 max-w-full text-sm">
          <span className="mb-1 block font-medium">Code</span>
          <input
            ref={input}
            id="withdraw-code"
            name="code"
            required
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="characters"
            placeholder="LECT-XXXX-XXXX-XXXX-XXXX"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            className={`${inputClasses} font-mono`}
            {...invalidProps("withdraw-code", refused)}
          />
        </label>
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Withdrawing..." : "Withdraw code"}
        </Button>
        <FieldError inputId="withdraw-code" message={refused} className="w-full" />
      </fetcher.Form>
      {answer && "message" in answer && (
        <div className="mt-3">
          <MessageBox tone="success" text={answer.message} />
        </div>
      )}
    </section>
  );
}
