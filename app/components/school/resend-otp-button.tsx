import { useEffect, useState } from "react";
import { type FormMessage, RESEND_GAP_MS, requestOtp, type SentCodes } from "../../lib/otp.ts";
import { useAction } from "../../lib/use-action.ts";

const RESEND_GAP_SECONDS = RESEND_GAP_MS / 1000;

/**
 * "Resend OTP", available a minute after the last send (the server refuses sooner anyway): the
 * dialog's `sentCodes` say when the code in the inbox was sent, so coming back to the code step
 * counts on, and a code sent again is recorded there.
 */
export function ResendOtpButton({
  email,
  slug,
  purpose,
  sentCodes,
  onResult,
}: {
  email: string;
  slug: string;
  purpose: "register" | "reset";
  sentCodes: SentCodes;
  onResult: (message: FormMessage) => void;
}) {
  const sentAt = sentCodes.find(email)?.at;
  const [secondsLeft, setSecondsLeft] = useState(() =>
    sentAt === undefined ? RESEND_GAP_SECONDS : Math.max(0, Math.ceil((sentAt + RESEND_GAP_MS - Date.now()) / 1000)),
  );
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const resend = useAction(() => requestOtp(email, slug, purpose), {
    onSuccess: (sent) => {
      setSecondsLeft(RESEND_GAP_SECONDS);
      sentCodes.record(email, sent);
      onResult(sent);
    },
    onError: (error) => onResult({ text: error.message }),
  });

  return (
    <p className="text-sm text-slate-600 dark:text-slate-400">
      Didn't get it?{" "}
      <button
        type="button"
        onClick={() => resend.run()}
        disabled={secondsLeft > 0 || resend.isPending}
        className="font-medium text-indigo-600 hover:underline disabled:cursor-not-allowed disabled:text-slate-400 disabled:no-underline dark:text-indigo-400"
      >
        {resend.isPending ? "Sending OTP..." : secondsLeft > 0 ? `Resend OTP in ${secondsLeft}s` : "Resend OTP"}
      </button>
    </p>
  );
}
