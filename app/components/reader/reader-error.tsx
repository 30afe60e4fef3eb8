import type { ReactNode } from "react";
import { SIGNED_OUT } from "../../lib/reader/reader-api.ts";
import { AskToRenew } from "../school/ask-to-renew.tsx";
import { buttonClasses } from "../ui/button.tsx";
import { Icon } from "../ui/icon.tsx";

function ReaderMessage({
  tone,
  title,
  message,
  backHref,
  backLabel,
  detail,
}: {
  tone: "error" | "wait";
  title: string;
  message: string;
  backHref: string;
  backLabel: string;
  detail?: ReactNode;
}) {
  const icon: ReactNode =
    tone === "error" ? (
      <path d="M12 8v5M12 16h.01M4 19h16L12 4z" strokeLinecap="round" strokeLinejoin="round" />
    ) : (
      <path d="M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z" strokeLinecap="round" strokeLinejoin="round" />
    );
  return (
    <main
      data-reader
      data-reader-error={tone === "error" ? message : undefined}
      data-reader-preparing={tone === "wait" ? "" : undefined}
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900 p-4 print:hidden"
    >
      <div
        role={tone === "error" ? "alert" : "status"}
        className="w-full max-w-md rounded-2xl border border-white/10 bg-slate-800 p-8 text-center text-slate-100 shadow-2xl"
      >
        <div
          className={`mx-auto flex h-12 w-12 items-center justify-center rounded-full ${tone === "error" ? "bg-red-500/15 text-red-300" : "bg-indigo-500/15 text-indigo-300"}`}
        >
          <Icon className="h-6 w-6">{icon}</Icon>
        </div>
        <h1 className="mt-4 text-xl font-bold">{title}</h1>
        <p className="mt-2 text-slate-300">{message}</p>
        {detail}
        {/* A plain link, not the router's: these screens are shown by pages that run no router. */}
        <a href={backHref} className={buttonClasses("primary", "mt-6")}>
          {backLabel}
        </a>
      </div>
    </main>
  );
}

/** The reader's failure screen: 'Error Loading PDF', what went wrong, and the way back. */
export function ReaderError({ message, backHref, backLabel }: { message: string; backHref: string; backLabel: string }) {
  return <ReaderMessage tone="error" title="Error Loading PDF" message={message} backHref={backHref} backLabel={backLabel} />;
}

/**
 * A book whose licence ended (the loader's 403): the day it ended and whom to ask, in the words of
 * the book's page (app/components/school/licence-ended.tsx).
 */
export function ReaderLicenceEnded({
  ended,
  backHref,
  backLabel,
}: {
  ended: { error: string; schoolEmail: string };
  backHref: string;
  backLabel: string;
}) {
  return (
    <ReaderMessage
      tone="error"
      title="This book is no longer available"
      message={ended.error}
      detail={<AskToRenew schoolEmail={ended.schoolEmail} className="mt-2 text-slate-300" linkClassName="text-indigo-300" />}
      backHref={backHref}
      backLabel={backLabel}
    />
  );
}

/**
 * The teacher's session ended while reading (signed out elsewhere, disabled, removed): why, as the
 * server said it (an admin disabled the account), else that they are signed out; and the way to sign in.
 */
export function ReaderSignedOut({ loginHref, message = SIGNED_OUT }: { loginHref: string; message?: string }) {
  return <ReaderMessage tone="error" title="Signed out" message={message} backHref={loginHref} backLabel="Sign in again" />;
}

/** A book whose pages the server is still preparing: nothing is wrong, it is just not ready. */
export function ReaderPreparing({
  backHref,
  backLabel,
  title = "Almost ready",
  message = "This book is still being prepared. Please check back in a few minutes.",
}: {
  backHref: string;
  backLabel: string;
  title?: string;
  message?: string;
}) {
  return <ReaderMessage tone="wait" title={title} message={message} backHref={backHref} backLabel={backLabel} />;
}
