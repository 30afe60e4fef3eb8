import { type FormEvent, type ReactNode, useState } from "react";
import { ApiError, api, call } from "../../lib/api-client.ts";
import { type FormMessage, requestOtp, useSentCodes } from "../../lib/otp.ts";
import { pageNavigation } from "../../lib/page-navigation.ts";
import { rememberTeacherName } from "../../lib/teacher-name.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button } from "../ui/button.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { Field, inputClasses } from "../ui/field.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { digitsOnly, NewPasswordFields, OtpField } from "./account-fields.tsx";
import { ResendOtpButton } from "./resend-otp-button.tsx";

type Step = 1 | 2 | 3;

const EMPTY = { name: "", mobile: "", email: "", otp: "", password: "", confirm: "" };
export const LIMIT_MESSAGE = "Maximum teacher registration limit reached for this school.";

export function RegisterDialog({
  open,
  onClose,
  slug,
  schoolName,
  basePath,
}: {
  open: boolean;
  onClose: () => void;
  slug: string;
  schoolName: string;
  basePath: string;
}) {
  const [step, setStep] = useState<Step>(1);
  const [fields, setFields] = useState(EMPTY);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const set = (key: keyof typeof EMPTY) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  // Back from the code step and forward again reaches it with the code already sent to that address.
  const sentCodes = useSentCodes();

  const limitReached = () => {
    setMessage({ text: LIMIT_MESSAGE });
    pageNavigation.go(`${basePath}/limit-reached`);
  };

  const sendOtp = useAction(() => requestOtp(fields.email, slug, "register"), {
    onSuccess: (sent) => {
      sentCodes.record(fields.email, sent);
      setMessage(sent);
      setStep(2);
    },
    onError: (error) =>
      error instanceof ApiError && error.message === "limit_reached" ? limitReached() : setMessage({ text: error.message }),
  });

  const registerTeacher = useAction(
    () =>
      call(
        () =>
          api.api.teacher.register.$post({
            json: { name: fields.name, mobile: fields.mobile, email: fields.email, password: fields.password, otp: fields.otp, slug },
          }),
        "Registration failed",
      ),
    {
      onSuccess: ({ teacherName }) => {
        rememberTeacherName(teacherName);
        pageNavigation.go(`${basePath}/dashboard`);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.message === "limit_reached") return limitReached();
        setMessage({ text: error.message });
        // A wrong or expired code is fixed on the code step, not the password step.
        if (/OTP/.test(error.message)) setStep(2);
      },
    },
  );

  function goTo(target: Step) {
    setMessage(null);
    setStep(target);
  }

  function close() {
    setStep(1);
    setFields(EMPTY);
    setMessage(null);
    sendOtp.reset();
    registerTeacher.reset();
    onClose();
  }

  function submitDetails(event: FormEvent) {
    event.preventDefault();
    if (!fields.name.trim() || !fields.email.trim() || !fields.mobile) {
      return setMessage({ text: "Please fill in all required fields (name, email, mobile)" });
    }
    const earlier = sentCodes.find(fields.email);
    if (earlier) {
      setMessage(earlier.message);
      return setStep(2);
    }
    setMessage(null);
    sendOtp.run();
  }

  function submitOtp(event: FormEvent) {
    event.preventDefault();
    if (!fields.otp) return setMessage({ text: "Please enter the OTP sent to your email" });
    setMessage(null);
    setStep(3);
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (!fields.password || !fields.confirm) return setMessage({ text: "Please fill in all fields" });
    if (fields.password !== fields.confirm) return setMessage({ text: "Passwords do not match" });
    setMessage(null);
    registerTeacher.run();
  }

  return (
    <Dialog
      id="register-dialog"
      open={open}
      onClose={close}
      title="Register as a Teacher"
      description={`Create your account to access ${schoolName} books`}
    >
      <StepIndicator step={step} />
      {message && (
        <div className="mb-4">
          <MessageBox text={message.text} tone={message.tone} />
        </div>
      )}
      {step === 1 && (
        <form className="space-y-4" onSubmit={submitDetails} noValidate>
          <Field label="Full Name" htmlFor="register-name">
            <input
              id="register-name"
              className={inputClasses}
              autoComplete="name"
              required
              value={fields.name}
              onChange={(e) => set("name")(e.target.value)}
            />
          </Field>
          <Field label="Mobile Number" htmlFor="register-mobile">
            <input
              id="register-mobile"
              className={inputClasses}
              inputMode="numeric"
              autoComplete="tel-national"
              placeholder="10-digit mobile number"
              maxLength={10}
              required
              value={fields.mobile}
              onChange={(e) => set("mobile")(digitsOnly(e.target.value, 10))}
            />
          </Field>
          <Field label="Email Address" htmlFor="register-email">
            <input
              id="register-email"
              type="email"
              className={inputClasses}
              autoComplete="email"
              required
              value={fields.email}
              onChange={(e) => set("email")(e.target.value)}
            />
          </Field>
          <Actions>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={sendOtp.isPending}>
              {sendOtp.isPending ? "Sending OTP..." : "Send OTP"}
            </Button>
          </Actions>
        </form>
      )}
      {step === 2 && (
        <form className="space-y-4" onSubmit={submitOtp} noValidate>
          <OtpField
            id="register-otp"
            label="OTP"
            hint="Please check your email for the OTP verification code"
            value={fields.otp}
            onChange={set("otp")}
          />
          <ResendOtpButton
            email={fields.email}
            slug={slug}
            purpose="register"
            sentAt={sentCodes.find(fields.email)?.at}
            onResult={setMessage}
            onSent={(sent) => sentCodes.record(fields.email, sent)}
          />
          <Actions>
            <Button variant="secondary" onClick={() => goTo(1)}>
              Back
            </Button>
            <Button type="submit">Verify OTP</Button>
          </Actions>
        </form>
      )}
      {step === 3 && (
        <form className="space-y-4" onSubmit={submitPassword} noValidate>
          <NewPasswordFields
            idPrefix="register"
            labels={["Password", "Confirm Password"]}
            hint="At least 8 characters. A short sentence is easy to remember and hard to guess."
            password={fields.password}
            confirm={fields.confirm}
            onPassword={set("password")}
            onConfirm={set("confirm")}
          />
          <Actions>
            <Button variant="secondary" onClick={() => goTo(2)}>
              Back
            </Button>
            <Button type="submit" disabled={registerTeacher.isPending}>
              {registerTeacher.isPending ? "Registering..." : "Complete Registration"}
            </Button>
          </Actions>
        </form>
      )}
    </Dialog>
  );
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="flex justify-end gap-3 pt-2">{children}</div>;
}

function StepIndicator({ step }: { step: Step }) {
  const labels = ["Your details", "Verify email", "Set password"];
  return (
    <ol className="mb-5 flex items-center gap-2 text-xs font-medium" aria-label="Registration steps">
      {labels.map((label, i) => {
        const n = i + 1;
        const state = n < step ? "done" : n === step ? "current" : "todo";
        return (
          <li key={label} className="flex flex-1 items-center gap-2" aria-current={state === "current" ? "step" : undefined}>
            <span
              className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full ${
                state === "todo"
                  ? "bg-slate-200 text-slate-600 dark:bg-slate-800 dark:text-slate-400"
                  : "bg-indigo-600 text-white dark:bg-indigo-500"
              }`}
            >
              {state === "done" ? "✓" : n}
            </span>
            <span
              className={state === "current" ? "text-slate-900 dark:text-white" : "hidden text-slate-600 sm:inline dark:text-slate-400"}
            >
              {label}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
