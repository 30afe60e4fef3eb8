import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { Route } from "../../../routes/+types/superadmin-dashboard";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { MessageBox } from "../../ui/message-box.tsx";

type DashboardAnswer = Route.ComponentProps["actionData"];

/**
 * A dialog whose form posts to the dashboard's action through its own fetcher: a refusal shows
 * inside it (the server's words), a success closes it and goes to `onDone`. `check` may refuse
 * before anything is sent.
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
  children?: ReactNode;
  submitLabel: string;
  busyLabel: string;
  danger?: boolean;
  check?: (form: FormData) => string | null;
  onDone: (answer: NonNullable<DashboardAnswer>) => void;
}) {
  const fetcher = useFetcher<DashboardAnswer>();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const busy = fetcher.state !== "idle";

  // A new opening starts without the last one's message.
  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  // Each answer once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to a finished post only
  useEffect(() => {
    const answer = fetcher.data;
    if (!sent || fetcher.state !== "idle" || !answer) return;
    setSent(false);
    if ("error" in answer) return setError(answer.error);
    onDone(answer);
    onClose();
  }, [fetcher.state, fetcher.data]);

  function submit(event: FormEvent<HTMLFormElement>) {
    const refused = check?.(new FormData(event.currentTarget)) ?? null;
    setError(refused);
    if (refused) return event.preventDefault();
    setSent(true);
  }

  return (
    <Dialog id={id} open={open} onClose={onClose} title={title} description={description}>
      <fetcher.Form method="post" className="space-y-4" onSubmit={submit} noValidate>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {children}
        {error && <MessageBox text={error} />}
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
