import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { action } from "../../../routes/school-account.tsx";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { fieldError, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { useAnswer } from "./answer.ts";
import { AccountSection } from "./section.tsx";

/**
 * Deleting the teacher's own account (docs/decisions/0045): what goes and what stays, and their
 * e-mail address typed to confirm (a slip of the mouse deletes nothing; a password would not do,
 * as a teacher who signs in with Google or Microsoft has none). Once deleted, the action signs
 * them out everywhere and the school's login page says so.
 */
export function DeleteAccount({ email, schoolName }: { email: string; schoolName: string }) {
  const fetcher = useFetcher<typeof action>({ key: "account-delete" });
  const { notice, refused, clear } = useAnswer("delete-account", fetcher.data);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  const [typed, setTyped] = useState("");
  const deleting = fetcher.state !== "idle";
  const matches = typed.trim().toLowerCase() === email;

  return (
    <AccountSection
      id="account-delete"
      title="Delete my account"
      description={`Your account at ${schoolName} and what it holds are deleted for good. This cannot be undone.`}
    >
      <div className="space-y-2 text-sm text-slate-700 dark:text-slate-300">
        <p>
          <span className="font-semibold">Deleted:</span> your name, e-mail address, mobile number and password; your bookmarks, highlights
          and notes; your reading progress, starred books and reading settings; every device you are signed in on.
        </p>
        <p>
          <span className="font-semibold">Kept, without your name:</span> the pages and minutes you read, in your school's and the
          publisher's reading figures.
        </p>
      </div>
      <fetcher.Form ref={form} method="post" className="mt-4 space-y-4" onSubmit={(event) => (matches ? clear() : event.preventDefault())}>
        <input type="hidden" name="intent" value="delete-account" />
        <TextField
          id="account-delete-confirm"
          label={`Type your e-mail address, ${email}, to confirm`}
          name="confirm"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          error={fieldError(refused, "confirm")}
          onChange={(event) => {
            setTyped(event.target.value);
            clear();
          }}
        />
        {notice && !fieldError(refused, "confirm") && <MessageBox text={notice.text} tone={notice.tone} />}
        <Button type="submit" disabled={!matches || deleting} className="bg-red-600 hover:bg-red-700 focus-visible:ring-red-500">
          {deleting ? "Deleting your account..." : "Delete my account"}
        </Button>
      </fetcher.Form>
    </AccountSection>
  );
}
