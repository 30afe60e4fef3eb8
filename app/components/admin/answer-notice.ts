import { useEffect, useRef, useState } from "react";
import type { Notice } from "./school/form-values.ts";

/**
 * The notice a page shows for its action's answers, each answer once: a refusal's sentence, or
 * what `onValue` makes of a value (it may also reset the page's form; undefined keeps the notice
 * as it is). The page may set the notice itself too (its own checks, a row's outcome).
 */
export function useAnswerNotice<Answer>(
  answer: Answer | undefined,
  onValue: (value: Exclude<Answer, { error: string }>) => Notice | undefined,
) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const latest = useRef(onValue);
  latest.current = onValue;
  useEffect(() => {
    if (!answer) return;
    if (typeof answer === "object" && "error" in answer) return setNotice({ text: String(answer.error) });
    const next = latest.current(answer as Exclude<Answer, { error: string }>);
    if (next) setNotice(next);
  }, [answer]);
  return [notice, setNotice] as const;
}
