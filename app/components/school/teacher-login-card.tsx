import { type FormEvent, useState } from "react";
import { ApiError, api, call } from "../../lib/api-client.ts";
import { pageNavigation } from "../../lib/page-navigation.ts";
import { rememberTeacherName } from "../../lib/teacher-name.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button } from "../ui/button.tsx";
import { Field, inputClasses } from "../ui/field.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { PasswordInput } from "../ui/password-input.tsx";

export function TeacherLoginCard({
  slug,
  schoolName,
  next,
  notice = null,
  onRegister,
  onForgotPassword,
}: {
  slug: string;
  schoolName: string | null;
  /** Where a successful login goes: the dashboard, or the school page that sent the teacher here. */
  next: string;
  /** Shown until the teacher tries to log in: why they are signed out (an admin disabled the account). */
  notice?: string | null;
  onRegister?: () => void;
  /** Opens the reset dialog, for the e-mail typed here. */
  onForgotPassword?: (email: string) => void;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(notice);
  // After a few wrong passwords (the server says how many tries are left) or the pause itself: point to the reset.
  const [offerReset, setOfferReset] = useState(false);

  const login = useAction(() => call(() => api.api.teacher.login.$post({ json: { email, password, slug } }), "Login failed"), {
    onSuccess: ({ teacherName }) => {
      rememberTeacherName(teacherName);
      pageNavigation.go(next);
    },
    onError: (e) => {
      setError(e.message);
      setOfferReset(e instanceof ApiError && (e.status === 429 || typeof triesLeft(e.body) === "number"));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setOfferReset(false);
    if (!email.trim() || !password) {
      setError("Please enter both email and password");
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
      <form className="mt-6 space-y-4" onSubmit={submit} noValidate>
        <Field label="Email" htmlFor="login-email">
          <input
            id="login-email"
            type="email"
            required
            autoComplete="email"
            inputMode="email"
            placeholder="you@school.org"
            className={inputClasses}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Password" htmlFor="login-password">
          <PasswordInput
            id="login-password"
            required
            autoComplete="current-password"
            placeholder="Your password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <div className="flex justify-end">
          <button
            type="button"
            onClick={() => onForgotPassword?.(email)}
            className="rounded text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Forgot Password?
          </button>
        </div>
        {error && <MessageBox text={error} />}
        {error && offerReset && (
          <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-700 dark:text-slate-300">
            Reset your password with a code sent to your email:
            <button
              type="button"
              onClick={() => onForgotPassword?.(email)}
              className="rounded font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
            >
              Forgot Password?
            </button>
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

/** The tries left that a refused login's answer carries (from the third wrong password), if any. */
function triesLeft(body: unknown): number | undefined {
  return body && typeof body === "object" && "triesLeft" in body && typeof body.triesLeft === "number" ? body.triesLeft : undefined;
}
