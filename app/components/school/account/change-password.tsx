import { type FormEvent, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { action } from "../../../routes/school-account.tsx";
import { Button } from "../../ui/button.tsx";
import { fieldError, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { useAnswer } from "./answer.ts";
import { AccountSection } from "./section.tsx";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * The current password and a new one twice. The action checks the current one like a sign-in
 * and, once changed, signs the teacher out on every other device; this one stays signed in.
 */
export function ChangePassword({ email }: { email: string }) {
  const fetcher = useFetcher<typeof action>({ key: "account-password" });
  const { notice, succeeded, refused, refuse, clear } = useAnswer("password", fetcher.data);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  const [fields, setFields] = useState(EMPTY);
  const changing = fetcher.state !== "idle";

  // A changed password is not left in the fields.
  useEffect(() => {
    if (succeeded) setFields(EMPTY);
  }, [succeeded]);

  function submit(event: FormEvent) {
    clear();
    if (fields.newPassword !== fields.confirmPassword) {
      event.preventDefault();
      refuse("Passwords do not match", "confirmPassword");
    }
  }

  const field = (name: keyof typeof EMPTY, label: string, autoComplete: string, hint?: string) => (
    <PasswordField
      id={`account-${name}`}
      label={label}
      hint={hint}
      error={fieldError(refused, name)}
      name={name}
      autoComplete={autoComplete}
      required
      value={fields[name]}
      onChange={(e) => {
        setFields((current) => ({ ...current, [name]: e.target.value }));
        clear();
      }}
    />
  );

  return (
    <AccountSection
      id="account-password"
      title="Change password"
      description="Once it is changed, you are signed out on your other devices. This device stays signed in."
    >
      <fetcher.Form ref={form} method="post" className="space-y-4" onSubmit={submit}>
        <input type="hidden" name="intent" value="password" />
        {/* Lets a password manager file the new password under the right account. */}
        <input type="hidden" autoComplete="username" value={email} />
        {field("currentPassword", "Current Password", "current-password")}
        {field("newPassword", "New Password", "new-password", "At least 8 characters. Common passwords are refused.")}
        {field("confirmPassword", "Confirm New Password", "new-password")}
        {notice && <MessageBox text={notice.text} tone={notice.tone} />}
        <Button type="submit" disabled={changing}>
          {changing ? "Changing password..." : "Change password"}
        </Button>
      </fetcher.Form>
    </AccountSection>
  );
}
