import type { InputHTMLAttributes, ReactNode } from "react";
import { FieldError, invalidProps } from "./field-error.tsx";

/** An input's look; a refused one (aria-invalid, app/components/ui/field-error.tsx) has a red border, beside its red message. */
export const inputClasses =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:opacity-60 aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 dark:aria-invalid:border-red-400";

/** The id of the hint under an input (which a TextField's or PasswordField's input is described by). */
export const fieldHintId = (inputId: string) => `${inputId}-hint`;

/**
 * A labelled input with an optional hint and, when the form's answer refused it, the refusal's
 * sentence beside it (the input itself takes `invalidProps(htmlFor, error, fieldHintId(htmlFor))` when it has a hint:
 * app/components/ui/field-error.tsx).
 */
export function Field({
  label,
  htmlFor,
  children,
  hint,
  error,
}: {
  label: string;
  htmlFor: string;
  children: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      {children}
      <FieldError inputId={htmlFor} message={error} />
      {hint && (
        <p id={fieldHintId(htmlFor)} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}

/** What a labelled input takes besides the input's own attributes (the other props go to the input). */
export type LabelledInputProps = { id: string; label: string; hint?: ReactNode; error?: string | null };

/** A Field around its one text input, marked when refused; `className` adds to the input's look. */
export function TextField({
  id,
  label,
  hint,
  error,
  className,
  ...input
}: LabelledInputProps & Omit<InputHTMLAttributes<HTMLInputElement>, "id">) {
  return (
    <Field label={label} htmlFor={id} hint={hint} error={error}>
      <input
        id={id}
        {...invalidProps(id, error, hint ? fieldHintId(id) : undefined)}
        className={className ? `${inputClasses} ${className}` : inputClasses}
        {...input}
      />
    </Field>
  );
}

/** A native file input whose button looks like the app's secondary buttons. */
export const fileInputClasses =
  "mt-2 block text-sm text-slate-700 file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:py-2 file:text-sm file:font-semibold file:text-slate-900 hover:file:bg-slate-100 dark:text-slate-200 dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100 dark:hover:file:bg-slate-800";
