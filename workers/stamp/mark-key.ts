import { dayOf } from "#shared/rules/licence.ts";
import { blockSigns, createLayout, type MarkLayout } from "./mark.ts";

/**
 * The secrets the hidden mark is keyed by (docs/decisions/0025-leak-trace.md). MARK_SECRET marks
 * every page served; MARK_SECRET_PREVIOUS, after a rotation, is still read by the trace so pages
 * taken before it stay traceable. Without MARK_SECRET (an older .dev.vars), the key is derived from
 * AUTH_SECRET, never used as is.
 */
export interface MarkSecrets {
  MARK_SECRET?: string;
  MARK_SECRET_PREVIOUS?: string;
  AUTH_SECRET: string;
}

export interface MarkKey {
  /** Which secret: "current" or "previous". */
  id: "current" | "previous";
  hmac: CryptoKey;
  layout: MarkLayout;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<MarkKey>>();

/** The key pages are marked with now. */
export function currentMarkKey(env: MarkSecrets): Promise<MarkKey> {
  return markKey("current", env.MARK_SECRET || `derived-from-auth:${env.AUTH_SECRET}`);
}

/** Every key a leaked page may carry: the current one, then the previous one when set. */
export async function readableMarkKeys(env: MarkSecrets): Promise<MarkKey[]> {
  const all = [await currentMarkKey(env)];
  if (env.MARK_SECRET_PREVIOUS) all.push(await markKey("previous", env.MARK_SECRET_PREVIOUS));
  return all;
}

function markKey(id: MarkKey["id"], secret: string): Promise<MarkKey> {
  const cacheKey = `${id}\n${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = (async () => {
      const hmac = await crypto.subtle.importKey(
        "raw",
        encoder.encode(`lectern-leak-mark\n${secret}`),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const seed = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, encoder.encode("layout")));
      return { id, hmac, layout: createLayout(seed) };
    })();
    keys.set(cacheKey, key);
  }
  return key;
}

const codes = new Map<string, Uint8Array>();
const CODE_CACHE_LIMIT = 4096;

/** The 256-bit code of a (teacher, day): HMAC-SHA256 under the key, remembered per isolate. */
export async function markCode(key: MarkKey, teacherId: number, day: string): Promise<Uint8Array> {
  const cacheKey = `${key.id}:${teacherId}:${day}`;
  const cached = codes.get(cacheKey);
  if (cached) return cached;
  const code = new Uint8Array(await crypto.subtle.sign("HMAC", key.hmac, encoder.encode(`code\n${teacherId}\n${day}`)));
  codes.set(cacheKey, code);
  if (codes.size > CODE_CACHE_LIMIT) codes.delete(codes.keys().next().value as string);
  return code;
}

const signs = new Map<string, Int8Array>();
const SIGNS_CACHE_LIMIT = 64;

/** The day a page is marked with: the UTC date, as the reports count days. */
export function markDay(now = Date.now()): string {
  return dayOf(now);
}

/** Each block's sign for a teacher's pages today, under the current key: what stampPage writes. */
export async function markSignsFor(env: MarkSecrets, teacherId: number, day = markDay()): Promise<Int8Array> {
  const key = await currentMarkKey(env);
  const cacheKey = `${teacherId}:${day}`;
  const cached = signs.get(cacheKey);
  if (cached) return cached;
  const result = blockSigns(key.layout, await markCode(key, teacherId, day));
  signs.set(cacheKey, result);
  if (signs.size > SIGNS_CACHE_LIMIT) signs.delete(signs.keys().next().value as string);
  return result;
}
