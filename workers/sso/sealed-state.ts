/**
 * The `state` a provider sign-in carries from its start to the provider's answer (decision 29):
 * sealed with jose (JWE, `dir` + A256GCM) under a key derived from AUTH_SECRET, for as long as a
 * sign-in may take, so a start writes nothing. Whether a state has been used is the callback's
 * row in D1 (flow.ts), kept until the state has expired.
 */
import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";
import { type ProviderName, ProviderNameSchema } from "./providers.ts";

/** How long a sign-in may take at the provider, and a ticket back to the teacher's host. */
export const SIGN_IN_TTL_MS = 10 * 60_000;

/** What the sealed `state` carries from step 1 to step 2. */
const SealedStateSchema = z.object({
  id: z.string().min(20),
  school: z.number().int().positive(),
  provider: ProviderNameSchema,
  nonce: z.string().min(20),
  verifier: z.string().min(43),
  returnTo: z.url(),
});
export type SealedState = z.output<typeof SealedStateSchema>;

const STATE_AUDIENCE = "lectern:oidc-state";

/** The 256-bit key that seals states: derived from AUTH_SECRET under its own label, never the secret itself. */
async function stateKey(secret: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`lectern oidc state\n${secret}`)));
}

export async function sealState(secret: string, state: SealedState, now: number): Promise<string> {
  return new EncryptJWT(state)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setAudience(STATE_AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + SIGN_IN_TTL_MS) / 1000))
    .encrypt(await stateKey(secret));
}

/** The state opened: sealed by us, not expired, for this provider; null for anything else. */
export async function openState(secret: string, sealed: string, provider: ProviderName, now: number): Promise<SealedState | null> {
  try {
    const { payload } = await jwtDecrypt(sealed, await stateKey(secret), {
      audience: STATE_AUDIENCE,
      currentDate: new Date(now),
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
    });
    const state = SealedStateSchema.safeParse(payload);
    return state.success && state.data.provider === provider ? state.data : null;
  } catch {
    return null;
  }
}
