import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { markAdminSignedIn } from "../../lib/admin-flag.ts";
import { ApiError, api, call } from "../../lib/api-client.ts";
import { redirectTarget } from "../../lib/redirect-target.ts";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { fieldError, useFocusInvalid } from "../ui/field-error.tsx";
import { LogoMark } from "../ui/logo.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { PasswordField } from "../ui/password-input.tsx";

/** The admin and superadmin sign-in card. */
export function AdminLoginForm({ kind, title, home }: { kind: "admin" | "superadmin"; title: string; home: string }) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  // The refusal whose field is marked (the API's `{ error, field }`, or the form's own check).
  const [refused, setRefused] = useState<unknown>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);
  const next = redirectTarget(searchParams.get("redirectTo"), kind === "admin" ? "/admin" : "/superadmin", home);

  const login = useMutation({
    mutationFn: () => call(() => api.api.admin.login.$post({ json: { email, password, role: kind } }), "Login failed"),
    onSuccess: ({ expiresAt }) => {
      markAdminSignedIn(expiresAt);
      navigate(next, { replace: true });
    },
    onError: (e) => {
      setError(e.message);
      setRefused(e instanceof ApiError ? e.body : null);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setRefused(null);
    if (!email.trim() || !password) {
      setError("Please enter both email and password");
      return setRefused({ error: "Please enter both email and password", field: email.trim() ? "password" : "email" });
    }
    login.mutate();
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 px-4 dark:bg-slate-950">
      <section className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-8 shadow-xl dark:border-slate-800 dark:bg-slate-900">
        <div className="flex items-center gap-2">
          <LogoMark />
          <span className="text-lg font-semibold">Lectern</span>
        </div>
        <h1 className="mt-6 text-xl font-bold">{title}</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Sign in with your staff account.</p>
        <form ref={form} className="mt-6 space-y-4" onSubmit={submit} noValidate>
          <TextField
            id="admin-email"
            label="Email"
            error={fieldError(refused, "email")}
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <PasswordField
            id="admin-password"
            label="Password"
            error={fieldError(refused, "password")}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error && <MessageBox text={error} />}
          <Button type="submit" className="w-full" disabled={login.isPending}>
            {login.isPending ? "Signing in..." : "Sign in"}
          </Button>
        </form>
      </section>
    </main>
  );
}
