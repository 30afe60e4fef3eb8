/**
 * The admins' writes to bookstore codes, each once (docs/decisions/0027-commands.md,
 * docs/decisions/0053): /api/codes runs these, and the console's code pages do. Each is audited in
 * its own transaction.
 */
import { z } from "zod";
import { CODE_FORMAT_ERROR, normalizeCode } from "#shared/rules/code-format.ts";
import { adminCommand } from "../kernel/command.ts";
import { failed, failure } from "../kernel/failure.ts";
import { idFrom } from "../validation/schemas.ts";
import { BatchInputSchema } from "./batch-input.ts";
import { BATCH_NOT_FOUND, createBatch } from "./batches.ts";
import { hashCode } from "./code-hash.ts";
import { CODE_NOT_FOUND, revokeBatch, revokeCode } from "./revoke.ts";

/** A new batch: 201 `{ batch, codes }`, the only answer that ever carries the codes. */
export const createBatchCommand = adminCommand(BatchInputSchema, async ({ db, env, actor }, input) => createBatch(db, env, actor, input));

/** An id as the URL carries it: anything malformed is a row that does not exist (idFrom). */
const PathRef = z.unknown();

export const revokeBatchCommand = adminCommand(z.object({ id: PathRef }), async ({ db, actor }, { id }) => {
  const batchId = idFrom(id);
  return batchId ? revokeBatch(db, actor, batchId) : failed({ kind: "not-found", error: BATCH_NOT_FOUND });
});

/** One code withdrawn by the code itself, as typed (the forgiving normalization of redeeming). */
export const revokeCodeCommand = adminCommand(
  z.object({ code: z.string({ error: "Type the code to withdraw" }).max(100, CODE_FORMAT_ERROR) }),
  async ({ db, env, actor }, { code }) => {
    const compact = normalizeCode(code);
    if (!compact) return failure("invalid", CODE_FORMAT_ERROR, "code");
    return revokeCode(db, actor, { hash: await hashCode(env, compact) });
  },
);

/** One code withdrawn from the batch's list, by its id. */
export const revokeCodeByIdCommand = adminCommand(z.object({ codeId: PathRef }), async ({ db, actor }, { codeId }) => {
  const id = idFrom(codeId);
  return id ? revokeCode(db, actor, { id }) : failed({ kind: "not-found", error: CODE_NOT_FOUND });
});
