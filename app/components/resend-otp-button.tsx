import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { requestJson } from "../lib/api-client.ts";

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
  onResult: (message: { text: string; tone?: "success" }) => void;
}) {
  const [secondsLeft, setSecondsLeft] = useState(RESEND_GAP_SECONDS);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const resend = useMutation({
    mutationFn: () =>
      requestJson<{ message?: string; error?: string }>("/api/teacher/send-otp", {
        body: { email, slug, purpose },
        fallback: "Failed to send OTP",
      }),
    onSuccess: (body) => {
      setSecondsLeft(RESEND_GAP_SECONDS);
      onResult(body.error ? { text: body.error } : { text: body.message ?? "A new OTP is on its way.", tone: "success" });
    },
    onError: (error) => onResult({ text: error.message }),
  });

  return (
    <p className="text-sm text-slate-600 dark:text-slate-400">
      Didn't get it?{" "}
      <button
        type="button"
        onClick={() => resend.mutate()}
        disabled={secondsLeft > 0 || resend.isPending}
        className="font-medium text-indigo-600 hover:underline disabled:cursor-not-allowed disabled:text-slate-400 disabled:no-underline dark:text-indigo-400"
      >
        {resend.isPending ? "Sending OTP..." : secondsLeft > 0 ? `Resend OTP in ${secondsLeft}s` : "Resend OTP"}
      </button>
    </p>
  );
}
