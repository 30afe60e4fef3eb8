import { useState } from "react";
import { useActionData } from "react-router";
import type { Route } from "../../../routes/+types/school-account";
import type { action } from "../../../routes/school-account.tsx";

/** What the account page's action answers a form: a message, or the error to show (typed from the action). */
export type AccountAnswer = NonNullable<Route.ComponentProps["actionData"]>;

export type Notice = { text: string; tone: "success" | "error" };

/**
 * The answer to show under one of the page's forms: its fetcher's, or (before the page was
 * hydrated, when the form posted as a page) the page's action data for the same intent. `clear`
 * hides it once the teacher starts editing again, so an old "saved" never sits next to new input.
 */
export function useAnswer(intent: string, fetched: AccountAnswer | undefined) {
  const posted = useActionData<typeof action>();
  const answer = fetched?.intent === intent ? fetched : posted?.intent === intent ? posted : undefined;
  const [cleared, setCleared] = useState<AccountAnswer | undefined>(undefined);
  const [problem, setProblem] = useState<{ error: string; field?: string } | null>(null);
  const shown = answer && answer !== cleared ? answer : undefined;
  const notice: Notice | null = problem
    ? { text: problem.error, tone: "error" }
    : shown
      ? "message" in shown
        ? { text: shown.message, tone: "success" }
        : { text: shown.error, tone: "error" }
      : null;
  return {
    notice,
    succeeded: Boolean(shown && "message" in shown),
    /** The refusal shown, with the field it names (the form marks it: app/components/ui/field-error.tsx). */
    refused: problem ?? (shown && "error" in shown ? shown : null),
    /** A problem found before posting (passwords that differ), and the field it is about. */
    refuse: (text: string, field?: string) => setProblem(field ? { error: text, field } : { error: text }),
    clear: () => {
      setProblem(null);
      setCleared(answer);
    },
  };
}
