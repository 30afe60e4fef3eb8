/**
 * Making bookstore codes and the one way they are stored (docs/decisions/0053): a code is 16
 * characters drawn uniformly from the 32-symbol alphabet with the platform's random source (80
 * bits), and D1 keeps only HMAC-SHA-256 of it under CODE_SECRET (hex). A keyed hash rather than a
 * plain one: a copy of the database alone (a backup, an export) cannot be searched for codes, since
 * 2^80 guesses are out of reach and the key is not in it. Without CODE_SECRET (an older .dev.vars)
 * the key is derived from AUTH_SECRET, never used as is. Changing the secret makes every unredeemed
 * code unredeemable: set it once in production and keep it.
 */
import { CODE_ALPHABET, CODE_LENGTH } from "#shared/rules/code-format.ts";

export interface CodeSecrets {
  CODE_SECRET?: string;
  AUTH_SECRET: string;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function codeKey(env: CodeSecrets): Promise<CryptoKey> {
  const secret = env.CODE_SECRET || `derived-from-auth:${env.AUTH_SECRET}`;
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(`lectern-bookstore-codes\n${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    keys.set(secret, key);
  }
  return key;
}

/** The stored form of a normalized code (normalizeCode's 16 characters): its HMAC, hex. */
export async function hashCode(env: CodeSecrets, compact: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await codeKey(env), encoder.encode(compact)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * `count` new codes, 16 characters each. 32 symbols divide 256, so a random byte's low five bits
 * pick a symbol with no bias.
 */
export function newCodes(count: number): string[] {
  const bytes = new Uint8Array(count * CODE_LENGTH);
  // getRandomValues fills at most 65,536 bytes a call.
  for (let at = 0; at < bytes.length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    let code = "";
    for (let j = 0; j < CODE_LENGTH; j++) code += CODE_ALPHABET[bytes[i * CODE_LENGTH + j]! & 31];
    made.push(code);
  }
  return made;
}
