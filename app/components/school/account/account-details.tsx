import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { rememberTeacherName } from "../../../lib/teacher-name.ts";
import type { action } from "../../../routes/school-account.tsx";
import { Button } from "../../ui/button.tsx";
import { fieldError, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { MobileField, NameField } from "../account-fields.tsx";
import { useAnswer } from "./answer.ts";
import { AccountSection } from "./section.tsx";

/** Name and mobile, with the registration's rules (checked by the page's action); the address is shown, not edited. */
export function AccountDetails({ account }: { account: { name: string; email: string; mobile: string } }) {
  const fetcher = useFetcher<typeof action>({ key: "account-profile" });
  const { notice, refused, clear } = useAnswer("profile", fetcher.data);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  const [name, setName] = useState(account.name);
  const [mobile, setMobile] = useState(account.mobile);
  const saving = fetcher.state !== "idle";

  // Once saved, the fields show what was stored (trimmed), and the header's greeting follows.
  useEffect(() => {
    setName(account.name);
    setMobile(account.mobile);
    rememberTeacherName(account.name);
  }, [account.name, account.mobile]);

  return (
    <AccountSection id="account-details" title="Your details" description="Your name appears in the header and on the pages you read.">
      <fetcher.Form ref={form} method="post" className="space-y-4" onSubmit={clear}>
        <input type="hidden" name="intent" value="profile" />
        <NameField
          id="account-name"
          name="name"
          maxLength={100}
          error={fieldError(refused, "name")}
          value={name}
          onChange={(value) => {
            setName(value);
            clear();
          }}
        />
        <MobileField
          id="account-mobile"
          name="mobile"
          hint="10 digits"
          error={fieldError(refused, "mobile")}
          value={mobile}
          onChange={(value) => {
            setMobile(value);
            clear();
          }}
        />
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-700 dark:text-slate-200">Email Address</p>
          <p className="text-sm break-all text-slate-600 dark:text-slate-400">{account.email}</p>
          <p className="text-xs text-slate-500 dark:text-slate-400">You sign in with this address.</p>
        </div>
        {notice && <MessageBox text={notice.text} tone={notice.tone} />}
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save details"}
        </Button>
      </fetcher.Form>
    </AccountSection>
  );
}
