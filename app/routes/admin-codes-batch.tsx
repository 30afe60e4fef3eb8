import { data } from "react-router";
import { batchCodes, type CodeStatus } from "../../workers/codes/batches.ts";
import { revokeBatchCommand, revokeCodeByIdCommand, revokeCodeCommand } from "../../workers/codes/commands.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { parseId } from "../../workers/validation/schemas.ts";
import { AdminPageHeader } from "../components/admin/admin-page.tsx";
import { BatchCodes, CODE_STATUS_NAMES, WITHDRAW_CODE_INTENT } from "../components/admin/codes/batch-codes.tsx";
import { BatchOverview, WITHDRAW_BATCH_INTENT } from "../components/admin/codes/batch-overview.tsx";
import { WITHDRAW_TYPED_INTENT, WithdrawTyped } from "../components/admin/codes/withdraw-typed.tsx";
import { SchoolPageError } from "../components/admin/school/route-error.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-codes-batch";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Batch ${loaderData.batch.id}` : "Batch"} · Lectern Admin` },
];

const NOT_FOUND = "Batch not found";
/** Codes a page of the list shows. */
const PAGE_SIZE = 100;

/** The batch and one page of its codes: `?status=` (unused, redeemed, revoked, expired) and `?page=` (from 1). */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const id = parseId(params.id);
  if (id === null) throw data(NOT_FOUND, { status: 404 });
  const search = new URL(request.url).searchParams;
  const rawStatus = search.get("status") ?? "";
  // A value the page did not make is no filter (as the other admin lists do).
  const status = Object.hasOwn(CODE_STATUS_NAMES, rawStatus) ? (rawStatus as CodeStatus) : null;
  const page = Math.max(1, Math.min(1000, Number.parseInt(search.get("page") ?? "1", 10) || 1));
  const found = await batchCodes(context.get(appContext).db, id, {
    ...(status ? { status } : {}),
    offset: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  });
  if (!found) throw data(NOT_FOUND, { status: 404 });
  return { ...found, status, page, pageSize: PAGE_SIZE };
}

/**
 * Withdrawing, as the API's revoke routes: one code from the list (`withdraw-code` with `codeId`),
 * the whole batch (`withdraw-batch`), or a code typed in full (`withdraw-typed` with `code`).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const intent = String(form.get("intent") ?? "");
  if (intent === WITHDRAW_CODE_INTENT) {
    const outcome = await runCommand({ context, request }, revokeCodeByIdCommand, { codeId: form.get("codeId") ?? "" });
    return reply(outcome, { intent }, ({ code }) => ({ intent, message: `Code …${code.last4} withdrawn: it can no longer be redeemed.` }));
  }
  if (intent === WITHDRAW_TYPED_INTENT) {
    const outcome = await runCommand({ context, request }, revokeCodeCommand, { code: form.get("code") ?? "" });
    return reply(outcome, { intent }, ({ code }) => ({ intent, message: `Code …${code.last4} withdrawn: it can no longer be redeemed.` }));
  }
  if (intent === WITHDRAW_BATCH_INTENT) {
    const outcome = await runCommand({ context, request }, revokeBatchCommand, { id: params.id });
    return reply(outcome, { intent }, ({ batch }) => ({
      intent,
      message: `Batch ${batch.id} withdrawn: none of its unused codes can be redeemed now. Redeemed codes and their licences stay.`,
    }));
  }
  return reply(failure("invalid", "Unknown action"), { intent });
}

export default function AdminCodesBatch({ loaderData }: Route.ComponentProps) {
  const { batch, codes, total, status, page, pageSize } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={`Batch ${batch.id}: ${batch.label}`}
        description="The terms its codes give, what became of them, and withdrawing them."
        actions={
          <ButtonLink to={`/admin/codes?label=${encodeURIComponent(batch.label)}`} variant="secondary">
            Batches of this label
          </ButtonLink>
        }
      />
      <BatchOverview batch={batch} />
      <WithdrawTyped />
      <BatchCodes key={`${status}:${page}`} codes={codes} total={total} status={status} page={page} pageSize={pageSize} />
    </div>
  );
}

export function ErrorBoundary() {
  return <SchoolPageError fallback={NOT_FOUND} title="Batch" />;
}
