/**
 * The offline copy's encryption (issue 45): AES-256-GCM under the loan's key, which the server gives
 * to this device's session. The key is imported NON-extractable, so the CryptoKey kept in IndexedDB
 * beside the copy can decrypt its pages but no script can read its bytes back out of it; the base64
 * text the server sent is dropped once imported.
 */
import { OFFLINE_KEY_BYTES } from "#shared/rules/offline.ts";

/** GCM's recommended nonce: 12 random bytes, fresh for every record (a nonce must never repeat under one key). */
const IV_BYTES = 12;

export type Sealed = { iv: Uint8Array<ArrayBuffer>; data: ArrayBuffer };

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The loan's key (base64 of 32 random bytes) as a CryptoKey that cannot be exported. */
export async function importLoanKey(base64: string): Promise<CryptoKey> {
  const raw = fromBase64(base64);
  if (raw.length !== OFFLINE_KEY_BYTES) throw new Error(`An offline loan's key must be ${OFFLINE_KEY_BYTES} bytes.`);
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  raw.fill(0);
  return key;
}

/**
 * `label` is GCM's additional data: it names the record (loan, kind, page), so a record moved onto
 * another page's key in the store fails to decrypt instead of showing the wrong page.
 */
export async function seal(key: CryptoKey, label: string, plain: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: new TextEncoder().encode(label) }, key, plain);
  return { iv, data };
}

/** Throws (an OperationError) when the key, the label or a byte of the record is wrong. */
export function unseal(key: CryptoKey, label: string, sealed: Sealed): Promise<ArrayBuffer> {
  return crypto.subtle.decrypt({ name: "AES-GCM", iv: sealed.iv, additionalData: new TextEncoder().encode(label) }, key, sealed.data);
}
