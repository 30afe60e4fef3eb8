import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { Button } from "../../ui/button.tsx";
import { Field, inputClasses, TextField } from "../../ui/field.tsx";
import { fieldError, invalidProps, useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";

type DashboardAnswer = Route.ComponentProps["actionData"];

/** What the last "create" said. */
function createMessage(answer: DashboardAnswer): { text: string; tone?: "success" } | null {
  if (answer?.intent !== "create") return null;
  if ("error" in answer) return { text: answer.error };
  if ("created" in answer) return { text: `Account created for ${answer.created}.`, tone: "success" };
  return null;
}

/** The new-account form, posted to the dashboard's action (intent "create"); emptied once the account exists. */
export function CreateAdmin({ answer }: { answer: DashboardAnswer }) {
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const message = createMessage(answer);
  // A refusal names the field at fault: marked beside it, and focused.
  const refused = answer?.intent === "create" && "error" in answer ? answer : null;
  useFocusInvalid(form, refused);
  // Each new account's answer empties the form.
  const created = answer && "created" in answer ? answer : null;
  useEffect(() => {
    if (created) form.current?.reset();
  }, [created]);
  return (
    <Form
      ref={form}
      method="post"
      preventScrollReset
      className="mt-6 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-5 dark:border-slate-800"
      noValidate
    >
      <input type="hidden" name="intent" value="create" />
      <h3 className="font-medium sm:col-span-5">New admin account</h3>
      {(["name", "email", "password"] as const).map((key) => (
        <TextField
          key={key}
          id={`new-admin-${key}`}
          label={key[0]!.toUpperCase() + key.slice(1)}
          error={fieldError(refused, key)}
          name={key}
          type={key === "password" ? "password" : key === "email" ? "email" : "text"}
          autoComplete={key === "password" ? "new-password" : "off"}
        />
      ))}
      <Field label="Role" htmlFor="new-admin-role" error={fieldError(refused, "role")}>
        <select
          id="new-admin-role"
          name="role"
          className={inputClasses}
          defaultValue="admin"
          {...invalidProps("new-admin-role", fieldError(refused, "role"))}
        >
          <option value="admin">Admin</option>
          <option value="superadmin">Superadmin</option>
        </select>
      </Field>
      <div className="flex items-end">
        <Button type="submit" disabled={creating} className="w-full">
          {creating ? "Creating..." : "Create"}
        </Button>
      </div>
      {message && (
        <div className="sm:col-span-5">
          <MessageBox text={message.text} tone={message.tone} />
        </div>
      )}
    </Form>
  );
}
