import { useEffect, useRef } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import type { action } from "../../../routes/school-account.tsx";
import { Button } from "../../ui/button.tsx";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { MessageBox } from "../../ui/message-box.tsx";
import { useAnswer } from "./answer.ts";
import { AccountSection } from "./section.tsx";

export interface DeviceSession {
  id: string;
  device: string | null;
  signedInAt: number;
  lastSeenAt: number;
  current: boolean;
}

/**
 * Where the teacher is signed in: each session's device, when it signed in and when it was last
 * used, this device marked; "End" for each other one, and "Sign out everywhere" (this device
 * too, then the login page).
 */
export function SignedInDevices({ sessions }: { sessions: DeviceSession[] }) {
  const fetcher = useFetcher<typeof action>({ key: "account-sessions" });
  const { notice } = useAnswer("end-session", fetcher.data);
  const ending = fetcher.state !== "idle" ? String(fetcher.formData?.get("sessionId") ?? "") : null;
  const navigation = useNavigation();
  const signingOut = navigation.state !== "idle" && navigation.formData?.get("intent") === "sign-out-everywhere";

  // The ended session's row (and the button that had focus) is gone: focus moves to the answer.
  const answer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (fetcher.data?.intent === "end-session") answer.current?.focus();
  }, [fetcher.data]);

  return (
    <AccountSection
      id="account-sessions"
      title="Where you're signed in"
      description="End a session you do not recognise, or one on a computer you no longer use."
    >
      <div ref={answer} tabIndex={-1} className="outline-none">
        {notice && (
          <div className="mb-4">
            <MessageBox text={notice.text} tone={notice.tone} />
          </div>
        )}
      </div>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {sessions.map((session) => {
          const device = session.device ?? "Unknown device";
          const detailsId = `session-${session.id}`;
          return (
            <li key={session.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1" id={detailsId}>
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                  {device}
                  {session.current && (
                    <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-950/60 dark:text-green-200">
                      This device
                    </span>
                  )}
                </p>
                <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                  Signed in <LocalDateTime value={session.signedInAt} />
                  {" · "}
                  {session.current ? (
                    "Active now"
                  ) : (
                    <>
                      Last seen <LocalDateTime value={session.lastSeenAt} />
                    </>
                  )}
                </p>
              </div>
              {!session.current && (
                <fetcher.Form method="post">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="sessionId" value={session.id} />
                  <Button
                    type="submit"
                    variant="secondary"
                    className="px-3 py-1.5"
                    aria-label={`${ending === session.id ? "Ending" : "End"} the session on ${device}`}
                    aria-describedby={detailsId}
                    disabled={ending !== null}
                  >
                    {ending === session.id ? "Ending..." : "End"}
                  </Button>
                </fetcher.Form>
              )}
            </li>
          );
        })}
      </ul>
      <Form method="post" className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800">
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          Signs you out on every device, this one included. You will need your password to sign in again.
        </p>
        <Button type="submit" variant="secondary" disabled={signingOut}>
          {signingOut ? "Signing out everywhere..." : "Sign out everywhere"}
        </Button>
      </Form>
    </AccountSection>
  );
}
