import { useEffect, useState } from "react";
import { type FormMessage, requestOtp } from "../../lib/otp.ts";
import { useAction } from "../../lib/use-action.ts";

const RESEND_GAP_SECONDS = 60;

/** "Resend OTP", available a minute after the last send (the server refuses sooner anyway). */
export function ResendOtpButton({
  email,
  slug,
  purpose,
  onResult,
}: {
  email: string;
  slug: string;
  purpose: "register" | "reset";
  onResult: (message: FormMessage) => void;
}) {
  const [secondsLeft, setSecondsLeft] = useState(RESEND_GAP_SECONDS);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const resend = useAction(() => requestOtp(email, slug, purpose), {
    onSuccess: (sent) => {
      setSecondsLeft(RESEND_GAP_SECONDS);
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
