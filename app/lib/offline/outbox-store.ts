import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Annotation, AnnotationPatch, NewAnnotation } from "../reader/reader-api.ts";

/**
 * Where the outbox (outbox.ts) keeps what waits to be sent, so it outlives a reload while offline:
 * IndexedDB in the browser, a plain in-memory copy where there is none (the server's render, a
 * browser that refuses it). docs/decisions/0051-offline-sync.md.
 */

/** Which annotation a change is for: the server's id, or the client id of a create not yet answered. */
export type Target = { id: number } | { clientId: string };

type OpBase = {
  /** The order ops were made in (IndexedDB's key generator); absent until stored. */
  seq?: number;
  bookId: number;
  /** The op's own id (a create's is also the server's idempotency key). */
  clientId: string;
  /** When the teacher made it (ms, this device's clock): the server's later-edit-wins time. */
  editedAt: number;
  /** Set once a flush could not send it (offline): a later refusal is then kept as a problem to show. */
  deferred?: boolean;
};
export type CreateOp = OpBase & { kind: "create"; body: NewAnnotation };
export type EditOp = OpBase & { kind: "edit"; target: Target; patch: AnnotationPatch; before: Annotation | null };
export type DeleteOp = OpBase & { kind: "delete"; target: Target; before: Annotation };
export type OutboxOp = CreateOp | EditOp | DeleteOp;

/** The latest reading position of a book on this device not yet known to be saved. */
export type PendingPosition = { bookId: number; page: number; editedAt: number };

/** Something sent later that the server did not take: shown to the teacher, with their words, until dismissed. */
export type Problem = { id: string; bookId: number; message: string; words: string; at: number };

/** The annotations of a book as last loaded, highlights without their words (those are the book's), for reading offline. */
export type CachedList = { bookId: number; annotations: Annotation[]; at: number };

/** The server's id of a create, once answered, for the changes queued behind it. */
export type SentId = { clientId: string; id: number };

interface Stores {
  ops: OutboxOp;
  positions: PendingPosition;
  problems: Problem;
  lists: CachedList;
  ids: SentId;
}
export type StoreName = keyof Stores;

interface OutboxSchema extends DBSchema {
  ops: { key: number; value: OutboxOp };
  positions: { key: number; value: PendingPosition };
  problems: { key: string; value: Problem };
  lists: { key: number; value: CachedList };
  ids: { key: string; value: SentId };
}

export interface OutboxStorage {
  all<S extends StoreName>(store: S): Promise<Stores[S][]>;
  get<S extends StoreName>(store: S, key: string | number): Promise<Stores[S] | undefined>;
  /** Stores the value; for an op, the answer is its seq. */
  put<S extends StoreName>(store: S, value: Stores[S]): Promise<string | number>;
  delete(store: StoreName, key: string | number): Promise<void>;
  clear(): Promise<void>;
  close(): void;
}

const KEYS: Record<StoreName, string> = { ops: "seq", positions: "bookId", problems: "id", lists: "bookId", ids: "clientId" };
const keyOf = (store: StoreName, value: object) => (value as Record<string, string | number>)[KEYS[store]] as string | number;

/** The in-memory fallback: the same calls over Maps (gone with the page, as there is nowhere else to keep them). */
export function memoryStorage(): OutboxStorage {
  const maps = new Map<StoreName, Map<string | number, unknown>>();
  const map = (store: StoreName) => maps.get(store) ?? maps.set(store, new Map()).get(store)!;
  let seq = 0;
  return {
    all: async (store) => [...map(store).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => structuredClone(v)) as never,
    get: async (store, key) => structuredClone(map(store).get(key)) as never,
    async put(store, value) {
      const stored = store === "ops" && (value as OutboxOp).seq === undefined ? { ...value, seq: ++seq } : value;
      const key = keyOf(store, stored);
      map(store).set(key, structuredClone(stored));
      return key;
    },
    delete: async (store, key) => void map(store).delete(key),
    clear: async () => maps.clear(),
    close: () => {},
  };
}

const DB_NAME = "lectern-outbox";

/** The outbox in IndexedDB: one store per kind of thing kept; ops in the order they were made. */
export async function indexedDbStorage(): Promise<OutboxStorage> {
  const db: IDBPDatabase<OutboxSchema> = await openDB<OutboxSchema>(DB_NAME, 1, {
    upgrade(made) {
      made.createObjectStore("ops", { keyPath: "seq", autoIncrement: true });
      made.createObjectStore("positions", { keyPath: "bookId" });
      made.createObjectStore("problems", { keyPath: "id" });
      made.createObjectStore("lists", { keyPath: "bookId" });
      made.createObjectStore("ids", { keyPath: "clientId" });
    },
    // A later version of the app in another tab wants the database: let it have it.
    blocking() {
      db.close();
      opened = null;
    },
  });
  return {
    all: (store) => db.getAll(store) as never,
    get: (store, key) => db.get(store, key as never) as never,
    put: (store, value) => db.put(store, value as never) as Promise<string | number>,
    delete: (store, key) => db.delete(store, key as never),
    async clear() {
      const tx = db.transaction(["ops", "positions", "problems", "lists", "ids"], "readwrite");
      await Promise.all([...tx.objectStoreNames].map((name) => tx.objectStore(name).clear()));
      await tx.done;
    },
    close: () => db.close(),
  };
}

let opened: Promise<OutboxStorage> | null = null;

/** The page's outbox storage: IndexedDB where the browser has it, else (or if it cannot be opened) memory. */
export function outboxStorage(): Promise<OutboxStorage> {
  opened ??= typeof indexedDB === "undefined" ? Promise.resolve(memoryStorage()) : indexedDbStorage().catch(() => memoryStorage());
  return opened;
}

/** Closes the storage so the next call opens it afresh: what a reload does (the unit tests' reload). */
export async function closeOutboxStorage(): Promise<void> {
  const storage = await opened;
  opened = null;
  storage?.close();
}
