import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, api, call } from "../../lib/api-client.ts";
import { type FormMessage, requestOtp, useSentCodes } from "../../lib/otp.ts";
import { useAction } from "../../lib/use-action.ts";
import { Dialog } from "../ui/dialog.tsx";
import { TextField } from "../ui/field.tsx";
import { fieldError, useFocusInvalid } from "../ui/field-error.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { DialogActions, NewPasswordFields, OtpField } from "./account-fields.tsx";
import { ResendOtpButton } from "./resend-otp-button.tsx";

const EMPTY = { email: "", otp: "", password: "", confirm: "" };
export const RESET_SUCCESS = "Password reset successful! You can now log in with your new password.";
export const RESET_CLOSE_DELAY_MS = 3000;

export function ResetPasswordDialog({
  open,
  onClose,
  slug,
  email = "",
}: {
  open: boolean;
  onClose: () => void;
  slug: string;
  /** The address the login card had typed: the dialog opens with it filled in. */
  email?: string;
}) {
  const [fields, setFields] = useState(EMPTY);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the dialog opens, not as the login card's field changes
  useEffect(() => {
    if (open && email) setFields((f) => (f.email ? f : { ...f, email }));
  }, [open]);
  const [otpSent, setOtpSent] = useState(false);
  const [message, setMessage] = useState<FormMessage | null>(null);
  // The refusal whose field is marked: the API's `{ error, field }` (its new password is
  // `newPassword`), or the dialog's own check.
  const [refused, setRefused] = useState<unknown>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  const set = (key: keyof typeof EMPTY) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  /** The dialog's own check: its sentence (as the spec words it) below, its field marked. */
  const refuse = (text: string, field: string) => {
    setMessage({ text });
    setRefused({ error: text, field });
  };
  const failed = (error: Error) => {
    setMessage({ text: error.message });
    setRefused(error instanceof ApiError ? error.body : null);
  };
  // Cancel and Send OTP again to the same address reaches the code stage with the code already sent.
  const sentCodes = useSentCodes();

  const sendOtp = useAction(() => requestOtp(fields.email, slug, "reset"), {
    onSuccess: (sent) => {
      sentCodes.record(fields.email, sent);
      setMessage(sent);
      setOtpSent(true);
    },
    onError: failed,
  });

  const reset = useAction(
    () =>
      call(
        () =>
          api.api.teacher["reset-password"].$post({ json: { email: fields.email, otp: fields.otp, newPassword: fields.password, slug } }),
        "Failed to reset password",
      ),
    {
      onSuccess: () => {
        sentCodes.forget(fields.email);
        setMessage({ text: RESET_SUCCESS, tone: "success" });
      },
      onError: failed,
    },
  );

  function close() {
    setFields(EMPTY);
    setOtpSent(false);
    setMessage(null);
    setRefused(null);
    sendOtp.reset();
    reset.reset();
    onClose();
  }

  // After a successful reset the dialog closes by itself, so the teacher is back at the login.
  const succeeded = reset.isSuccess;
  // biome-ignore lint/correctness/useExhaustiveDependencies: close() only resets state; the timer must start once, on success
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(close, RESET_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    if (!otpSent) {
      if (!fields.email.trim()) return refuse("Please enter your email address", "email");
      const earlier = sentCodes.find(fields.email);
      if (earlier) {
        setMessage(earlier.message);
        return setOtpSent(true);
      }
      setMessage(null);
      return sendOtp.run();
    }
    const empty = (["otp", "password", "confirm"] as const).find((key) => !fields[key]);
    if (empty) return refuse("Please fill in all fields", empty === "password" ? "newPassword" : empty);
    if (fields.password !== fields.confirm) return refuse("Passwords do not match", "confirm");
    setMessage(null);
    reset.run();
  }

  const busy = sendOtp.isPending || reset.isPending;
  const label = !otpSent
    ? sendOtp.isPending
      ? "Sending OTP..."
      : "Send OTP"
    : reset.isPending
      ? "Resetting Password..."
      : "Reset Password";

  return (
    <Dialog
      id="reset-dialog"
      open={open}
      onClose={close}
      title="Reset Your Password"
      description="Enter your email to receive a verification code"
    >
      <form ref={form} className="space-y-4" onSubmit={submit} noValidate>
        <TextField
          id="reset-email"
          label="Email"
          error={fieldError(refused, "email")}
          type="email"
          autoComplete="email"
          required
          readOnly={otpSent}
          value={fields.email}
          onChange={(e) => set("email")(e.target.value)}
        />
        {otpSent && (
          <>
            <OtpField id="reset-otp" label="OTP Code" value={fields.otp} onChange={set("otp")} error={fieldError(refused, "otp")} />
            <ResendOtpButton email={fields.email} slug={slug} purpose="reset" sentCodes={sentCodes} onResult={setMessage} />
            <NewPasswordFields
              idPrefix="reset"
              labels={["New Password", "Confirm New Password"]}
              hint="At least 8 characters."
              password={fields.password}
              confirm={fields.confirm}
              onPassword={set("password")}
              onConfirm={set("confirm")}
              errors={{ password: fieldError(refused, "newPassword"), confirm: fieldError(refused, "confirm") }}
            />
          </>
        )}
        {message && <MessageBox text={message.text} tone={message.tone} />}
        <DialogActions back="Cancel" onBack={close} submit={label} disabled={busy || succeeded} />
      </form>
    </Dialog>
  );
}
