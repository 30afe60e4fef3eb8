import { useEffect, useRef, useState } from "react";
import { Link, useActionData, useFetcher } from "react-router";
import { cardClasses } from "../admin/admin-page.tsx";
import { Button } from "../ui/button.tsx";
import { fieldHintId, inputClasses } from "../ui/field.tsx";
import { FieldError, invalidProps } from "../ui/field-error.tsx";
import { MessageBox } from "../ui/message-box.tsx";

export const REDEEM_INTENT = "redeem-code";

/** What the page's action answers the card: the redemption's sentence, or the refusal's. */
export type RedeemAnswer = { intent: string; message: string } | { intent: string; error: string; field?: string };

const INPUT_ID = "redeem-code-input";

/** The card's words: a coordinator redeems for their own school, an admin for the school whose page it is. */
const WORDS = {
  coordinator: {
    title: "Redeem a bookstore code",
    description:
      "Bought digital access with your printed books? Type the code from the card the bookstore gave you: its books are added to your school's library.",
  },
  admin: {
    title: "Redeem a bookstore code for this school",
    description: "A code the school bought from a bookstore and read out to you: its books are added to the school's licences.",
  },
};
const HINT = "As printed on the card: LECT-XXXX-XXXX-XXXX-XXXX";

/**
 * "Redeem a bookstore code" (docs/decisions/0053): the code a school bought with its printed books,
 * posted to the page's action (My school's for a coordinator, the admin's school page for that
 * school). A redemption says what the school now has, and the page's data loads again (its books,
 * its licences), and `next` leads to where they show; a refusal (not a code, wrong, used, expired, withdrawn, too many tries) is the
 * field's: its sentence beside the input, which takes the focus so the code can be corrected.
 */
export function RedeemCode({ who, next }: { who: "coordinator" | "admin"; next: { to: string; label: string } }) {
  const { title, description } = WORDS[who];
  const fetcher = useFetcher<RedeemAnswer>({ key: REDEEM_INTENT });
  // Without JavaScript the form posts as a page; its answer comes back as the page's action data.
  const posted = useActionData<RedeemAnswer>();
  const answer = fetcher.data ?? (posted?.intent === REDEEM_INTENT ? posted : undefined);
  const [code, setCode] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const notice = useRef<HTMLDivElement>(null);
  const busy = fetcher.state !== "idle";
  const refused = answer && "error" in answer ? answer.error : null;

  useEffect(() => {
    const data = fetcher.data;
    if (!data) return;
    if ("message" in data) {
      setCode("");
      notice.current?.focus();
    } else input.current?.focus();
  }, [fetcher.data]);

  return (
    <section className={cardClasses} aria-labelledby="redeem-code-title">
      <h2 id="redeem-code-title" className="font-semibold">
        {title}
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      <fetcher.Form method="post" className="flex flex-wrap items-start gap-3">
        <input type="hidden" name="intent" value={REDEEM_INTENT} />
        <div className="w-96 max-w-full space-y-1.5">
          <label htmlFor={INPUT_ID} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
            Code
          </label>
          <input
            ref={input}
            id={INPUT_ID}
            name="code"
            required
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            className={`${inputClasses} font-mono tracking-wide`}
            {...invalidProps(INPUT_ID, refused, fieldHintId(INPUT_ID))}
          />
          <FieldError inputId={INPUT_ID} message={refused} className="max-w-md" />
          <p id={fieldHintId(INPUT_ID)} className="text-xs text-slate-500 dark:text-slate-400">
            {HINT}
          </p>
        </div>
        <Button type="submit" disabled={busy} className="mt-6">
          {busy ? "Redeeming..." : "Redeem"}
        </Button>
      </fetcher.Form>
      <div ref={notice} tabIndex={-1} className="focus:outline-none">
        {answer && "message" in answer && (
          <div className="mt-3">
            <MessageBox tone="success" text={answer.message} />
            <p className="mt-2 text-sm">
              <Link to={next.to} className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300">
                {next.label}
              </Link>
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
