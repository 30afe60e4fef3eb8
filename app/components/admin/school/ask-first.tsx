import { type ReactNode, useEffect, useRef, useState } from "react";
import { type FetcherWithComponents, useActionData, useFetcher } from "react-router";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { MessageBox, messageTone } from "../../ui/message-box.tsx";

/** What a school page's action answers for a row's intent (a teacher's, a seat's). */
export type RowAnswer = { intent: string; message: string } | { intent: string; error: string };

/** The answer's sentence and how it shows (an error, else a success or a plain notice); nothing before one. */
export function answerNotice(answer: RowAnswer | undefined) {
  const text = answer ? ("message" in answer ? answer.message : answer.error) : null;
  const tone = answer && "message" in answer ? (messageTone(answer.message) === "info" ? "info" : "success") : undefined;
  return { text, tone } as const;
}

/**
 * A table's row actions on a school page: its fetcher (keyed: the page's other forms keep their
 * own), the answer to show (the fetcher's, or without JavaScript the page's action data when `mine`
 * says the intent was this table's), the row the dialog asks about, and whether a post is on its way.
 */
export function useRowActions<Row>(key: string, mine: (intent: string) => boolean) {
  const fetcher = useFetcher<RowAnswer>({ key });
  const posted = useActionData<RowAnswer>();
  const answer = fetcher.data ?? (posted && mine(posted.intent) ? posted : undefined);
  const [confirm, setConfirm] = useState<Row | null>(null);
  return { fetcher, answer, confirm, setConfirm, busy: fetcher.state !== "idle" };
}

/** A row's action that asks first: it opens the confirmation dialog. `label` names the row (the teacher, the seat). */
export function AskFirstButton({
  label,
  busy,
  onClick,
  className = "",
  children,
}: {
  label: string;
  busy: boolean;
  onClick: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      variant="secondary"
      className={`px-3 py-1.5 ${className}`}
      aria-label={label}
      aria-haspopup="dialog"
      disabled={busy}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** The confirmation dialog's form: the row's fields posted to the page's action, Cancel, and the action's own button. */
export function ConfirmForm({
  Form,
  fields,
  onClose,
  submitClassName,
  children,
}: {
  Form: FetcherWithComponents<unknown>["Form"];
  fields: Record<string, string | number>;
  onClose: () => void;
  submitClassName?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="flex justify-end gap-3" onSubmit={onClose}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button variant="secondary" onClick={onClose}>
        Cancel
      </Button>
      <Button type="submit" className={submitClassName}>
        {children}
      </Button>
    </Form>
  );
}

/**
 * A row action's answer, shown above its table. It takes the focus when `focusOn` becomes an
 * answer: the row, and the button that had the focus, may be gone.
 */
export function RowNotice({ answer, focusOn }: { answer: RowAnswer | undefined; focusOn: RowAnswer | undefined }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusOn) notice.current?.focus();
  }, [focusOn]);
  const { text, tone } = answerNotice(answer);
  return (
    <div ref={notice} tabIndex={-1} className="focus:outline-none">
      {text && (
        <div className="mb-3">
          <MessageBox text={text} tone={tone} />
        </div>
      )}
    </div>
  );
}

/** What the dialog asks about one row: its question, the fields its form posts, and the action's button. */
export interface Asked {
  title: string;
  description: string;
  fields: Record<string, string | number>;
  action: string;
}

/** The dialog a row's action asks in, open while `row` is chosen; its form posts the row's fields. */
export function ConfirmDialog<Row>({
  id,
  row,
  onClose,
  ask,
  Form,
  submitClassName,
}: {
  id: string;
  row: Row | null;
  onClose: () => void;
  ask: (row: Row) => Asked;
  Form: FetcherWithComponents<unknown>["Form"];
  submitClassName?: string;
}) {
  const asked = row === null ? null : ask(row);
  return (
    <Dialog id={id} open={asked !== null} onClose={onClose} title={asked?.title ?? ""} description={asked?.description}>
      {asked && (
        <ConfirmForm Form={Form} fields={asked.fields} onClose={onClose} submitClassName={submitClassName}>
          {asked.action}
        </ConfirmForm>
      )}
    </Dialog>
  );
}
