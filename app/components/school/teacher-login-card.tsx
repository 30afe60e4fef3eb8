import { type FormEvent, useRef, useState } from "react";
import type { ProviderName } from "../../../workers/sso/providers.ts";
import { ApiError, api, call } from "../../lib/api-client.ts";
import { pageNavigation } from "../../lib/page-navigation.ts";
import { rememberTeacherName } from "../../lib/teacher-name.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { fieldError, useFocusInvalid } from "../ui/field-error.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { PasswordField } from "../ui/password-input.tsx";

export function TeacherLoginCard({
  slug,
  schoolName,
  next,
  notice = null,
  providers = [],
  onRegister,
  onForgotPassword,
}: {
  slug: string;
  schoolName: string | null;
  /** Where a successful login goes: the dashboard, or the school page that sent the teacher here. */
  next: string;
  /** Shown until the teacher tries to log in: why they are signed out (an admin disabled the account). */
  notice?: string | null;
  /** The school's providers: a button each, above the e-mail form. */
  providers?: ProviderName[];
  onRegister?: () => void;
  /** Opens the reset dialog, for the e-mail typed here. */
  onForgotPassword?: (email: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(notice);
  // After a few wrong passwords (the server says how many tries are left) or the pause itself: point to the reset.
  const [offerReset, setOfferReset] = useState(false);
  // The refusal whose field is marked (the API's `{ error, field }`, or the card's own check).
  const [refused, setRefused] = useState<unknown>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);

  const login = useAction(() => call(() => api.api.teacher.login.$post({ json: { email, password, slug } }), "Login failed"), {
    onSuccess: ({ teacherName }) => {
      rememberTeacherName(teacherName);
      pageNavigation.go(next);
    },
    onError: (e) => {
      setError(e.message);
      setRefused(e instanceof ApiError ? e.body : null);
      setOfferReset(e instanceof ApiError && (e.status === 429 || typeof triesLeft(e.body) === "number"));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setOfferReset(false);
    setRefused(null);
    if (!email.trim() || !password) {
      setError("Please enter both email and password");
      setRefused({ error: "Please enter both email and password", field: email.trim() ? "password" : "email" });
      return;
    }
    login.run();
  }

  return (
    <section
      aria-labelledby="teacher-login-title"
      className="w-full rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-900/5 sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="teacher-login-title" className="text-xl font-bold tracking-tight">
        Teacher Login
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {schoolName ? `Access books for ${schoolName}` : "Enter your details to access school books"}
      </p>
      {providers.length > 0 && (
        <div className="mt-6 space-y-3">
          {providers.map((provider) => (
            <a
              key={provider}
              href={`/api/auth/oidc/${provider}/start?school=${encodeURIComponent(slug)}`}
              className="flex w-full items-center justify-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <ProviderMark provider={provider} />
              {`Sign in with ${provider === "google" ? "Google" : "Microsoft"}`}
            </a>
          ))}
          <p className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
            or with your e-mail
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
          </p>
        </div>
      )}
      <form ref={form} className="mt-6 space-y-4" onSubmit={submit} noValidate>
        <TextField
          id="login-email"
          label="Email"
          error={fieldError(refused, "email")}
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          placeholder="you@school.org"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          id="login-password"
          label="Password"
          error={fieldError(refused, "password")}
          required
          autoComplete="current-password"
          placeholder="Your password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <div className="flex justify-end">
          <ForgotPasswordButton className="text-sm font-medium" onClick={() => onForgotPassword?.(email)} />
        </div>
        {error && <MessageBox text={error} />}
        {error && offerReset && (
          <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-700 dark:text-slate-300">
            Reset your password with a code sent to your email:
            <ForgotPasswordButton className="font-semibold" onClick={() => onForgotPassword?.(email)} />
          </p>
        )}
        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Login"}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        First time here?{" "}
        <button type="button" onClick={onRegister} className="rounded font-semibold text-indigo-600 hover:underline dark:text-indigo-400">
          Register here
        </button>
      </p>
    </section>
  );
}

/** "Forgot Password?", under the password and again beside a refusal that offers a reset. */
function ForgotPasswordButton({ className, onClick }: { className: string; onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} className={`rounded ${className} text-indigo-600 hover:underline dark:text-indigo-400`}>
      Forgot Password?
    </button>
  );
}

/** The tries left that a refused login's answer carries (from the third wrong password), if any. */
function triesLeft(body: unknown): number | undefined {
  return body && typeof body === "object" && "triesLeft" in body && typeof body.triesLeft === "number" ? body.triesLeft : undefined;
}

/** The provider's mark beside its button (drawn here: nothing is fetched from the provider). */
function ProviderMark({ provider }: { provider: ProviderName }) {
  if (provider === "microsoft")
    return (
      <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
        <path fill="#f25022" d="M1 1h8.5v8.5H1z" />
        <path fill="#7fba00" d="M10.5 1H19v8.5h-8.5z" />
        <path fill="#00a4ef" d="M1 10.5h8.5V19H1z" />
        <path fill="#ffb900" d="M10.5 10.5H19V19h-8.5z" />
      </svg>
    );
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.8z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6H1.3a12 12 0 0 0 0 10.8z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.8 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}
