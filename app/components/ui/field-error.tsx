import { type RefObject, useEffect } from "react";

/**
 * A refused field marked on its form (issue 43): a page action's refusal, or an API's, is
 * `{ error, field }` (app/lib/run-command.server.ts), `field` being the input's path in the
 * command's schema ("slug", "google.domains.0"). The form keeps its own message where it has one;
 * the field's input is marked invalid and described by the same sentence beside it.
 */

/** The sentence of a refusal when it names one of `names` (or a part of one: "rows.2.slug" names "rows"), else null. */
export function fieldError(answer: unknown, ...names: string[]): string | null {
  if (!answer || typeof answer !== "object" || !("error" in answer) || !("field" in answer)) return null;
  const { error, field } = answer;
  if (typeof error !== "string" || typeof field !== "string") return null;
  return names.some((name) => field === name || field.startsWith(`${name}.`)) ? error : null;
}

/** The id of the message beside an input. */
const fieldErrorId = (inputId: string) => `${inputId}-error`;

/**
 * What an input with a refusal carries: `aria-invalid` and `aria-describedby` naming the message
 * (before `describedBy`, what describes it already, such as a hint).
 */
export function invalidProps(inputId: string, message: string | null | undefined, describedBy?: string) {
  const ids = [message ? fieldErrorId(inputId) : null, describedBy].filter(Boolean).join(" ");
  return { "aria-invalid": message ? (true as const) : undefined, "aria-describedby": ids || undefined };
}

/** The refusal's sentence beside its input, under the id the input's `aria-describedby` names. */
export function FieldError({
  inputId,
  message,
  className = "",
}: {
  inputId: string;
  message: string | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p id={fieldErrorId(inputId)} className={`text-xs font-medium text-red-700 dark:text-red-300 ${className}`}>
      {message}
    </p>
  );
}

/**
 * After a refused submit, focus goes to the first input marked invalid in `container`, once for
 * each answer that names a field (a person typing is not moved about; WCAG 3.3.1).
 */
export function useFocusInvalid(container: RefObject<HTMLElement | null>, answer: unknown) {
  useEffect(() => {
    if (!answer || typeof answer !== "object" || !("field" in answer)) return;
    container.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [answer, container]);
}
