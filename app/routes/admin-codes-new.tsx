import { useRouteLoaderData } from "react-router";
import { dayOf } from "#shared/rules/licence.ts";
import { listAdminBooks } from "../../workers/books/list.ts";
import { createBatchCommand } from "../../workers/codes/commands.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { AdminPageHeader } from "../components/admin/admin-page.tsx";
import { PICKER_LIST } from "../components/admin/book-picker.tsx";
import { BatchForm } from "../components/admin/codes/batch-form.tsx";
import { batchInput } from "../components/admin/codes/batch-input.ts";
import { MadeCodes } from "../components/admin/codes/made-codes.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { loader as rootLoader } from "../root.tsx";
import type { Route } from "./+types/admin-codes-new";

export const meta: Route.MetaFunction = () => [{ title: "New batch of codes · Lectern Admin" }];

/** The book picker's first list (no search yet), painted with the page, and today (the earliest day a date may name). */
export async function loader({ context }: Route.LoaderArgs) {
  const { books } = await listAdminBooks(context.get(appContext).db, PICKER_LIST);
  return { books, today: dayOf(Date.now()) };
}

/**
 * Makes the batch (as POST /api/codes/batches). Its answer is the only one that ever carries the
 * codes (docs/decisions/0053): the page shows them once, for the CSV and the cards.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const outcome = await runCommand({ context, request }, createBatchCommand, batchInput(form));
  return reply(outcome);
}

export default function AdminCodesNew({ loaderData, actionData }: Route.ComponentProps) {
  const publisher = useRouteLoaderData<typeof rootLoader>("root")?.publisher.name ?? "";
  const made = actionData && "codes" in actionData ? actionData : null;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={made ? "Codes made" : "New batch of codes"}
        description={
          made ? undefined : "Codes a bookstore sells with the printed books; a school redeems one on My school for the licence it gives."
        }
        actions={
          <ButtonLink to="/admin/codes" variant="secondary">
            All batches
          </ButtonLink>
        }
      />
      {made ? (
        <MadeCodes key={made.batch.id} batch={made.batch} codes={made.codes} publisher={publisher} />
      ) : (
        <BatchForm initialBooks={loaderData.books} today={loaderData.today} refused={actionData} />
      )}
    </div>
  );
}
