import { Field, inputClasses } from "../ui/field.tsx";
import { PasswordInput } from "../ui/password-input.tsx";

export const digitsOnly = (value: string, max: number) => value.replace(/\D/g, "").slice(0, max);

/** The 6-digit code field of the register and reset dialogs: digits only, at most 6. */
export function OtpField({
  id,
  label,
  hint,
  value,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <input
        id={id}
        className={`${inputClasses} text-center font-mono text-lg tracking-[0.4em]`}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="Enter 6-digit OTP"
        maxLength={6}
        required
        value={value}
        onChange={(e) => onChange(digitsOnly(e.target.value, 6))}
      />
    </Field>
  );
}

/** A new password and its confirmation, each with show/hide. */
export function NewPasswordFields({
  idPrefix,
  labels,
  hint,
  password,
  confirm,
  onPassword,
  onConfirm,
}: {
  idPrefix: string;
  labels: [string, string];
  hint: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
}) {
  return (
    <>
      <Field label={labels[0]} htmlFor={`${idPrefix}-password`} hint={hint}>
        <PasswordInput
          id={`${idPrefix}-password`}
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => onPassword(e.target.value)}
        />
      </Field>
      <Field label={labels[1]} htmlFor={`${idPrefix}-confirm`}>
        <PasswordInput
          id={`${idPrefix}-confirm`}
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => onConfirm(e.target.value)}
        />
      </Field>
    </>
  );
}
