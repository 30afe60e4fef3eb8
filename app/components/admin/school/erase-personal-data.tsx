import { useEffect, useRef, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import type { action } from "../../../routes/admin-school.tsx";
import { Button } from "../../ui/button.tsx";
import { inputClasses } from "../../ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { cardClasses } from "../admin-page.tsx";

export const ERASE_INTENT = "erase-personal-data";

/**
 * Erasing the school's personal data (docs/decisions/0045), at the foot of its page: what goes and
 * what stays, named for this school, and its slug typed to confirm (the action checks it too, as
 * Delete School does). The school, its licences and its figures stay; its teachers' accounts go.
 */
export function ErasePersonalData({ school }: { school: { schoolName: string; slug: string; teacherCount: number } }) {
  const fetcher = useFetcher<typeof action>({ key: ERASE_INTENT });
  const posted = useActionData<typeof action>();
  const answer = fetcher.data ?? (posted?.intent === ERASE_INTENT ? posted : undefined);
  const [typed, setTyped] = useState("");
  const erasing = fetcher.state !== "idle";
  const refused = erasing ? null : fieldError(answer, "confirm");
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, answer);
  const notice = erasing || !answer || refused ? null : "message" in answer ? answer.message : answer.error;
  // Done: the slug is typed again for another erasure (a repeat is harmless, but never a stray click).
  useEffect(() => {
    if (fetcher.data && "message" in fetcher.data) setTyped("");
  }, [fetcher.data]);
  const accounts =
    school.teacherCount === 0
      ? "It has no teacher account now."
      : `It has ${school.teacherCount} teacher account${school.teacherCount === 1 ? "" : "s"}.`;

  return (
    <section className={`${cardClasses} border-red-200 dark:border-red-900`} aria-labelledby="erase-title">
      <h2 id="erase-title" className="font-semibold text-red-700 dark:text-red-300">
        Erase personal data
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        For a school that asks for its teachers' data to be erased. {school.schoolName} itself is not deleted.
      </p>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold">Erased for good</dt>
          <dd className="mt-1 text-slate-700 dark:text-slate-300">
            {accounts} Of each account: the name, e-mail address, mobile number and password; its sign-ins on every device (signed out at
            once), one-time codes, bookmarks, highlights and notes, reading progress, starred books and reading settings; the name and
            address in the audit log.
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Kept</dt>
          <dd className="mt-1 text-slate-700 dark:text-slate-300">
            The school, its address and contact, its licences and books, and its usage figures (pages read, reading time, books opened,
            active teachers), with no teacher named. Teachers may register again, as new accounts.
          </dd>
        </div>
      </dl>
      <fetcher.Form
        ref={form}
        method="post"
        onSubmit={(event) => typed !== school.slug && event.preventDefault()}
        className="mt-4 space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
      >
        <input type="hidden" name="intent" value={ERASE_INTENT} />
        <label htmlFor="erase-confirm" className="block text-sm">
          Type <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">{school.slug}</code> to erase the personal data of{" "}
          {school.schoolName}. This cannot be undone.
          <input
            id="erase-confirm"
            name="confirm"
            autoComplete="off"
            spellCheck={false}
            className={`${inputClasses} mt-1 max-w-sm font-mono`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            {...invalidProps("erase-confirm", refused)}
          />
        </label>
        <FieldError inputId="erase-confirm" message={refused} />
        {notice && <MessageBox text={notice} tone={answer && "message" in answer ? "success" : "error"} />}
        <Button type="submit" disabled={typed !== school.slug || erasing} className="bg-red-600 hover:bg-red-700">
          {erasing ? "Erasing..." : "Erase personal data"}
        </Button>
      </fetcher.Form>
    </section>
  );
}
