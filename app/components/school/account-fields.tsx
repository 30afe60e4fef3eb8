import type { ReactNode } from "react";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { PasswordField } from "../ui/password-input.tsx";

export const digitsOnly = (value: string, max: number) => value.replace(/\D/g, "").slice(0, max);

/** What the name and mobile fields take: the input's id, name (a plain form posts it), value, a refusal of it. */
type DetailFieldProps = {
  id: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  maxLength?: number;
};

/** The teacher's full name, as registration asks for it (registering, and the account page). */
export function NameField({ onChange, ...props }: DetailFieldProps) {
  return <TextField label="Full Name" autoComplete="name" required {...props} onChange={(e) => onChange(e.target.value)} />;
}

/** A 10-digit mobile number (registering, and the account page): digits only, at most 10. */
export function MobileField({ onChange, ...props }: Omit<DetailFieldProps, "maxLength">) {
  return (
    <TextField
      label="Mobile Number"
      inputMode="numeric"
      autoComplete="tel-national"
      placeholder="10-digit mobile number"
      maxLength={10}
      required
      {...props}
      onChange={(e) => onChange(digitsOnly(e.target.value, 10))}
    />
  );
}

/** The 6-digit code field of the register and reset dialogs: digits only, at most 6; `error`, a refusal of it. */
export function OtpField({
  id,
  label,
  hint,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
}) {
  return (
    <TextField
      id={id}
      label={label}
      hint={hint}
      error={error}
      className="text-center font-mono text-lg tracking-[0.4em]"
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder="Enter 6-digit OTP"
      maxLength={6}
      required
      value={value}
      onChange={(e) => onChange(digitsOnly(e.target.value, 6))}
    />
  );
}

/** A new password and its confirmation, each with show/hide; `errors`, a refusal of either. */
export function NewPasswordFields({
  idPrefix,
  labels,
  hint,
  password,
  confirm,
  onPassword,
  onConfirm,
  errors = {},
}: {
  idPrefix: string;
  labels: [string, string];
  hint: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  errors?: { password?: string | null; confirm?: string | null };
}) {
  return (
    <>
      <PasswordField
        id={`${idPrefix}-password`}
        label={labels[0]}
        hint={hint}
        error={errors.password}
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => onPassword(e.target.value)}
      />
      <PasswordField
        id={`${idPrefix}-confirm`}
        label={labels[1]}
        error={errors.confirm}
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirm(e.target.value)}
      />
    </>
  );
}

/** The end of a register or reset step: a way back (Cancel, Back) and the step's submit, which names what it is doing. */
export function DialogActions({
  back,
  onBack,
  submit,
  disabled = false,
}: {
  back: string;
  onBack: () => void;
  submit: string;
  disabled?: boolean;
}) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      <Button variant="secondary" onClick={onBack}>
        {back}
      </Button>
      <Button type="submit" disabled={disabled}>
        {submit}
      </Button>
    </div>
  );
}
