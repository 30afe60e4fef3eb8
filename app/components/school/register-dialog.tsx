import { type FormEvent, useRef, useState } from "react";
import { ApiError, api, call } from "../../lib/api-client.ts";
import { type FormMessage, requestOtp, useSentCodes } from "../../lib/otp.ts";
import { pageNavigation } from "../../lib/page-navigation.ts";
import { rememberTeacherName } from "../../lib/teacher-name.ts";
import { useAction } from "../../lib/use-action.ts";
import { Dialog } from "../ui/dialog.tsx";
import { TextField } from "../ui/field.tsx";
import { fieldError, useFocusInvalid } from "../ui/field-error.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { DialogActions, MobileField, NameField, NewPasswordFields, OtpField } from "./account-fields.tsx";
import { ResendOtpButton } from "./resend-otp-button.tsx";

type Step = 1 | 2 | 3;

const EMPTY = { name: "", mobile: "", email: "", otp: "", password: "", confirm: "" };
export const LIMIT_MESSAGE = "Maximum teacher registration limit reached for this school.";
/** The step each refused field is typed on: a refusal takes the teacher there, to the field marked. */
const STEP_OF: Record<string, Step> = { name: 1, mobile: 1, email: 1, otp: 2, password: 3, confirm: 3 };
type Refusal = { error: string; field?: string };

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
  // The refusal whose field is marked (the API's `{ error, field }`, or the dialog's own check).
  const [refused, setRefused] = useState<unknown>(null);
  const body = useRef<HTMLDivElement>(null);
  useFocusInvalid(body, refused);
  const set = (key: keyof typeof EMPTY) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  /** The dialog's own check: its sentence (as the spec words it) above, its field marked. */
  const refuse = (text: string, field: keyof typeof EMPTY) => {
    setMessage({ text });
    setRefused({ error: text, field } satisfies Refusal);
  };
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
    onError: (error) => {
      if (error instanceof ApiError && error.message === "limit_reached") return limitReached();
      setMessage({ text: error.message });
      setRefused(error instanceof ApiError ? error.body : null);
    },
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
        const answer = error instanceof ApiError ? error.body : null;
        setRefused(answer);
        // A wrong or expired code is fixed on the code step, not the password step; a refused
        // field on the step it is typed on.
        const field = Object.keys(STEP_OF).find((name) => fieldError(answer, name));
        if (/OTP/.test(error.message)) setStep(2);
        else if (field) setStep(STEP_OF[field]!);
      },
    },
  );

  function goTo(target: Step) {
    setMessage(null);
    setRefused(null);
    setStep(target);
  }

  function close() {
    setStep(1);
    setFields(EMPTY);
    setMessage(null);
    setRefused(null);
    sendOtp.reset();
    registerTeacher.reset();
    onClose();
  }

  function submitDetails(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    const empty = (["name", "mobile", "email"] as const).find((key) => !fields[key].trim());
    if (empty) return refuse("Please fill in all required fields (name, email, mobile)", empty);
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
    setRefused(null);
    if (!fields.otp) return refuse("Please enter the OTP sent to your email", "otp");
    setMessage(null);
    setStep(3);
  }

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    if (!fields.password || !fields.confirm) return refuse("Please fill in all fields", fields.password ? "confirm" : "password");
    if (fields.password !== fields.confirm) return refuse("Passwords do not match", "confirm");
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
      <div ref={body}>
        <StepIndicator step={step} />
        {message && (
          <div className="mb-4">
            <MessageBox text={message.text} tone={message.tone} />
          </div>
        )}
        {step === 1 && (
          <form className="space-y-4" onSubmit={submitDetails} noValidate>
            <NameField id="register-name" error={fieldError(refused, "name")} value={fields.name} onChange={set("name")} />
            <MobileField id="register-mobile" error={fieldError(refused, "mobile")} value={fields.mobile} onChange={set("mobile")} />
            <TextField
              id="register-email"
              label="Email Address"
              error={fieldError(refused, "email")}
              type="email"
              autoComplete="email"
              required
              value={fields.email}
              onChange={(e) => set("email")(e.target.value)}
            />
            <DialogActions
              back="Cancel"
              onBack={close}
              submit={sendOtp.isPending ? "Sending OTP..." : "Send OTP"}
              disabled={sendOtp.isPending}
            />
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
              error={fieldError(refused, "otp")}
            />
            <ResendOtpButton email={fields.email} slug={slug} purpose="register" sentCodes={sentCodes} onResult={setMessage} />
            <DialogActions back="Back" onBack={() => goTo(1)} submit="Verify OTP" />
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
              errors={{ password: fieldError(refused, "password"), confirm: fieldError(refused, "confirm") }}
            />
            <DialogActions
              back="Back"
              onBack={() => goTo(2)}
              submit={registerTeacher.isPending ? "Registering..." : "Complete Registration"}
              disabled={registerTeacher.isPending}
            />
          </form>
        )}
      </div>
    </Dialog>
  );
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
