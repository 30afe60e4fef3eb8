import { Button } from "./button.tsx";
import { MessageBox } from "./message-box.tsx";

/**
 * The end of a two-column form (Add Books, Add School, a book's details): the form's refusal across
 * both columns, then its submit button, at the right unless `atStart`.
 */
export function FormFooter({
  error,
  busy,
  label,
  busyLabel,
  atStart = false,
}: {
  error: string | null | undefined;
  busy: boolean;
  label: string;
  busyLabel: string;
  atStart?: boolean;
}) {
  return (
    <>
      {error && (
        <div className="sm:col-span-2">
          <MessageBox text={error} />
        </div>
      )}
      <div className={atStart ? "sm:col-span-2" : "flex justify-end sm:col-span-2"}>
        <Button type="submit" disabled={busy}>
          {busy ? busyLabel : label}
        </Button>
      </div>
    </>
  );
}
