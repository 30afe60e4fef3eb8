import { type InputHTMLAttributes, useState } from "react";
import { Field, fieldHintId, inputClasses, type LabelledInputProps } from "./field.tsx";
import { invalidProps } from "./field-error.tsx";
import { Icon } from "./icon.tsx";

/** A password field with a show/hide toggle that keeps focus and works from the keyboard. */
export function PasswordInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input {...props} type={visible ? "text" : "password"} className={`${inputClasses} pr-11`} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100"
        aria-label={visible ? "Hide password" : "Show password"}
        aria-pressed={visible}
      >
        {visible ? (
          <Icon className="h-5 w-5">
            <path
              d="M3 3l18 18M10.6 10.6a2 2 0 0 0 2.8 2.8M9.9 5.1A9.8 9.8 0 0 1 12 5c5 0 9 4.5 10 7a12.5 12.5 0 0 1-3.2 4.3M6.1 6.1C3.9 7.6 2.5 9.8 2 12c1 2.5 5 7 10 7a9.7 9.7 0 0 0 4.2-.9"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </Icon>
        ) : (
          <Icon className="h-5 w-5">
            <path d="M2 12c1-2.5 5-7 10-7s9 4.5 10 7c-1 2.5-5 7-10 7S3 14.5 2 12z" strokeLinejoin="round" />
            <circle cx="12" cy="12" r="3" />
          </Icon>
        )}
      </button>
    </div>
  );
}

/** A Field around its one PasswordInput, marked when refused (the other props go to the input). */
export function PasswordField({
  id,
  label,
  hint,
  error,
  ...input
}: LabelledInputProps & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type">) {
  return (
    <Field label={label} htmlFor={id} hint={hint} error={error}>
      <PasswordInput id={id} {...invalidProps(id, error, hint ? fieldHintId(id) : undefined)} {...input} />
    </Field>
  );
}
