import { fieldError } from "../../ui/field-error.tsx";
import { PasswordField } from "../../ui/password-input.tsx";
import { ActionDialog } from "./action-dialog.tsx";

type Account = { id: number; email: string };
type Done = (message: { text: string; tone: "success" }) => void;

/** The password rules the server applies (workers/validation/schemas.ts PasswordSchema), said before it refuses. */
export const PASSWORD_RULES = "At least 8 and at most 128 characters, and not a commonly used password.";

/** A new password for an account, typed twice (each can be shown); posted as intent "update". */
export function ResetPasswordDialog({ account, onClose, onDone }: { account: Account | null; onClose: () => void; onDone: Done }) {
  return (
    <ActionDialog
      id="reset-password-dialog"
      title="Reset password"
      description={account ? `A new password for ${account.email}. Their sessions end at once.` : ""}
      open={account !== null}
      onClose={onClose}
      fields={{ intent: "update", id: String(account?.id ?? "") }}
      submitLabel="Set password"
      busyLabel="Saving..."
      check={(form) =>
        form.get("password") === form.get("confirm") ? null : { error: "The two passwords do not match", field: "confirm" }
      }
      onDone={() => onDone({ text: `New password set for ${account?.email}. Their sessions were ended.`, tone: "success" })}
    >
      {(refused) => (
        <>
          <PasswordField
            id="reset-password-new"
            label="New password"
            hint={PASSWORD_RULES}
            error={fieldError(refused, "password")}
            name="password"
            autoComplete="new-password"
            required
          />
          <PasswordField
            id="reset-password-confirm"
            label="Confirm new password"
            error={fieldError(refused, "confirm")}
            name="confirm"
            autoComplete="new-password"
            required
          />
        </>
      )}
    </ActionDialog>
  );
}

/** Deleting an account, confirmed; posted as intent "delete". */
export function DeleteAdminDialog({ account, onClose, onDone }: { account: Account | null; onClose: () => void; onDone: Done }) {
  return (
    <ActionDialog
      id="delete-admin-dialog"
      title="Delete this account?"
      description={
        account
          ? `${account.email} is signed out at once and can no longer sign in. Their entries in the audit log stay. This cannot be undone.`
          : ""
      }
      open={account !== null}
      onClose={onClose}
      fields={{ intent: "delete", id: String(account?.id ?? "") }}
      submitLabel="Delete account"
      busyLabel="Deleting..."
      danger
      onDone={() => onDone({ text: `The account of ${account?.email} was deleted.`, tone: "success" })}
    />
  );
}
