import { type FormEvent, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import type { Route } from "../../../routes/+types/admin-school";
import type { action } from "../../../routes/admin-school.tsx";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses } from "../admin-page.tsx";
import type { Notice } from "./form-values.ts";

/** What the school page's action answers one setting's form: a message, or the error to show (typed from the action). */
export type SettingAnswer = NonNullable<Route.ComponentProps["actionData"]>;

function noticeOf(answer: SettingAnswer | undefined): Notice | null {
  if (!answer) return null;
  return "message" in answer ? { text: answer.message, tone: "success" } : { text: answer.error };
}

/**
 * One whole-number setting of the school in its own card, posted to the page's action as
 * `intent` with the value under `name`. Obvious mistakes are caught before the post; the action
 * checks again with the API's schema, and the page's data reloads after a save.
 */
export function NumberSetting(props: {
  id: string;
  intent: string;
  name: string;
  title: string;
  description?: string;
  label: string;
  initial: number;
  min: number;
  max: number;
  saveLabel: string;
  /** A mistake the range alone does not catch (the teachers already registered), or null. */
  check?: (value: number) => string | null;
}) {
  const fetcher = useFetcher<typeof action>();
  // Without JavaScript the form posts as a page; its answer comes back as the page's action data.
  const posted = useActionData<typeof action>();
  const answer = fetcher.data ?? (posted?.intent === props.intent ? posted : undefined);
  const [value, setValue] = useState(String(props.initial));
  const [problem, setProblem] = useState<Notice | null>(null);
  const saving = fetcher.state !== "idle";

  function submit(event: FormEvent) {
    const n = Number(value);
    const found = Number.isInteger(n) ? (props.check?.(n) ?? null) : null;
    const outOfRange = !Number.isInteger(n) || n < props.min || n > props.max;
    const text = found ?? (outOfRange ? `Enter a whole number from ${props.min} to ${props.max}.` : null);
    setProblem(text ? { text } : null);
    if (!text) return;
    event.preventDefault();
    document.getElementById(props.id)?.focus();
  }

  const message = problem ?? noticeOf(answer);
  // The page's own check and the action's refusal of this value both mark the field.
  const invalid = problem?.text ?? fieldError(answer, props.name);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, answer);
  const titleId = `${props.id}-title`;
  return (
    <section className={cardClasses} aria-labelledby={titleId}>
      <h2 id={titleId} className="font-semibold">
        {props.title}
      </h2>
      {props.description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{props.description}</p>}
      <fetcher.Form ref={form} method="post" onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value={props.intent} />
        <label htmlFor={props.id} className="text-sm">
          {props.label}
          <input
            id={props.id}
            name={props.name}
            type="number"
            min={props.min}
            max={props.max}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            className={`${inputClasses} mt-1 w-32`}
            {...invalidProps(props.id, invalid)}
          />
        </label>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : props.saveLabel}
        </Button>
        <FieldError inputId={props.id} message={invalid} className="w-full" />
      </fetcher.Form>
      {message && (
        <div className="mt-3">
          <MessageBox text={message.text} tone={message.tone} />
        </div>
      )}
    </section>
  );
}
