import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { useFocusInvalid } from "../../ui/field-error.tsx";
import { MessageBox } from "../../ui/message-box.tsx";

type DashboardAnswer = Route.ComponentProps["actionData"];
/** A refusal, the server's or the dialog's own check's, with the field it names (which the dialog's fields mark). */
export type DialogRefusal = { error: string; field?: string };

/**
 * A dialog whose form posts to the dashboard's action through its own fetcher: a refusal shows
 * inside it (the server's words), and beside the field it names when `children` is a function of
 * it; a success closes it and goes to `onDone`. `check` may refuse before anything is sent.
 */
export function ActionDialog({
  id,
  title,
  description,
  open,
  onClose,
  fields,
  children,
  submitLabel,
  busyLabel,
  danger = false,
  check,
  onDone,
}: {
  id: string;
  title: string;
  description: ReactNode;
  open: boolean;
  onClose: () => void;
  fields: Record<string, string>;
  children?: ReactNode | ((refused: DialogRefusal | null) => ReactNode);
  submitLabel: string;
  busyLabel: string;
  danger?: boolean;
  check?: (form: FormData) => DialogRefusal | null;
  onDone: (answer: NonNullable<DashboardAnswer>) => void;
}) {
  const fetcher = useFetcher<DashboardAnswer>();
  const [refused, setRefused] = useState<DialogRefusal | null>(null);
  const [sent, setSent] = useState(false);
  const busy = fetcher.state !== "idle";
  const form = useRef<HTMLFormElement>(null);
  useFocusInvalid(form, refused);

  // A new opening starts without the last one's message.
  useEffect(() => {
    if (open) setRefused(null);
  }, [open]);

  // Each answer once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to a finished post only
  useEffect(() => {
    const answer = fetcher.data;
    if (!sent || fetcher.state !== "idle" || !answer) return;
    setSent(false);
    if ("error" in answer) return setRefused(answer);
    onDone(answer);
    onClose();
  }, [fetcher.state, fetcher.data]);

  function submit(event: FormEvent<HTMLFormElement>) {
    const found = check?.(new FormData(event.currentTarget)) ?? null;
    setRefused(found);
    if (found) return event.preventDefault();
    setSent(true);
  }

  return (
    <Dialog id={id} open={open} onClose={onClose} title={title} description={description}>
      <fetcher.Form ref={form} method="post" className="space-y-4" onSubmit={submit} noValidate>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {typeof children === "function" ? children(refused) : children}
        {refused && <MessageBox text={refused.error} />}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} className={danger ? "bg-red-600 hover:bg-red-700" : ""}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}
