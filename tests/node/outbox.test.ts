import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EDITED_ELSEWHERE } from "#shared/rules/offline-sync.ts";
import {
  flushOutbox,
  forgetOutbox,
  isOfflineError,
  listProblems,
  pendingOps,
  saveReadingPosition,
  submit,
} from "../../app/lib/offline/outbox.ts";
import { closeOutboxStorage } from "../../app/lib/offline/outbox-store.ts";
import { ReaderApiError } from "../../app/lib/reader/reader-api.ts";

// The outbox of work done offline (issue 45 item 4, docs/decisions/0051): ops kept in IndexedDB
// (fake-indexeddb here), sent in the order made, the same client id on every try, a refusal not
// retried forever and kept with the teacher's words, positions one per book.

const BOOK = 9;
type Sent = { method: string; path: string; body: Record<string, unknown> | null };

/**
 * A server for the outbox to talk to: `offline` makes every request fail as fetch does; `loseAnswer`
 * lets the next create through but fails its answer on the way back; `answer` replaces an answer.
 */
function fakeServer() {
  const server = {
    offline: false,
    loseAnswer: false,
    answer: null as ((sent: Sent) => Response | null) | null,
    sent: [] as Sent[],
    made: new Map<string, number>(),
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      if (server.offline) throw new TypeError("Failed to fetch");
      const sent = {
        method: init?.method ?? "GET",
        path,
        body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null,
      };
      server.sent.push(sent);
      const answer = server.answer?.(sent);
      if (answer) return answer;
      if (sent.method === "POST") {
        // Idempotent as the Worker is: the same client id answers the first annotation.
        const clientId = String(sent.body?.clientId);
        const id = server.made.get(clientId) ?? 100 + server.made.size;
        server.made.set(clientId, id);
        if (server.loseAnswer) {
          server.loseAnswer = false;
          throw new TypeError("Network connection lost");
        }
        return Response.json({ annotation: { id, ...sent.body, text: null } }, { status: 201 });
      }
      if (sent.method === "PATCH") return Response.json({ annotation: { id: Number(path.split("/").pop()), ...sent.body } });
      return new Response(null, { status: 204 });
    }),
  );
  return server;
}

const note = (text: string, clientId = crypto.randomUUID(), editedAt = Date.now()) => ({
  kind: "create" as const,
  bookId: BOOK,
  clientId,
  editedAt,
  body: { kind: "note" as const, page: 2, note: text },
});

beforeEach(async () => {
  await forgetOutbox();
});
afterEach(() => vi.unstubAllGlobals());

describe("the outbox", () => {
  it("keeps what was made offline and sends it in order when the connection returns; a change follows its create", async () => {
    const server = fakeServer();
    server.offline = true;
    const create = note("On the bus");
    expect((await submit(create)).outcome).toBe("queued");
    const edit = {
      kind: "edit" as const,
      bookId: BOOK,
      clientId: crypto.randomUUID(),
      editedAt: Date.now() + 1,
      target: { clientId: create.clientId },
      patch: { note: "On the bus, changed" },
      before: null,
    };
    expect((await submit(edit)).outcome).toBe("queued");
    expect((await pendingOps(BOOK)).map((op) => op.kind)).toEqual(["create", "edit"]);

    server.offline = false;
    await flushOutbox();
    expect(server.sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /api/books/9/annotations",
      "PATCH /api/books/9/annotations/100",
    ]);
    expect(server.sent[0]?.body).toMatchObject({ clientId: create.clientId, note: "On the bus" });
    expect(server.sent[1]?.body).toEqual({ note: "On the bus, changed", editedAt: edit.editedAt });
    expect(await pendingOps(BOOK)).toEqual([]);
  });

  it("outlives a reload while offline (IndexedDB), and sends after it", async () => {
    const server = fakeServer();
    server.offline = true;
    await submit(note("Before the reload"));
    await saveReadingPosition(BOOK, 14, 1_000);
    await closeOutboxStorage(); // the page goes; the browser's database stays
    expect((await pendingOps(BOOK)).map((op) => op.kind === "create" && op.body)).toEqual([
      { kind: "note", page: 2, note: "Before the reload" },
    ]);
    server.offline = false;
    await flushOutbox();
    expect(server.sent.map((s) => [s.method, s.body?.note ?? s.body?.page])).toEqual([
      ["POST", "Before the reload"],
      ["PUT", 14],
    ]);
    // The position keeps the time it was made, not the time it was sent.
    expect(server.sent[1]?.body).toEqual({ page: 14, editedAt: 1_000 });
    expect(await pendingOps(BOOK)).toEqual([]);
  });

  it("sends a create whose answer was lost again under the same client id: the server makes one", async () => {
    const server = fakeServer();
    server.loseAnswer = true;
    const create = note("Sent twice");
    expect((await submit(create)).outcome).toBe("queued");
    await flushOutbox();
    const posts = server.sent.filter((s) => s.method === "POST");
    expect(posts.map((p) => p.body?.clientId)).toEqual([create.clientId, create.clientId]);
    expect(server.made.size).toBe(1);
    expect(await pendingOps(BOOK)).toEqual([]);
  });

  it("does not send a refused change again: it is kept as a problem with the teacher's words", async () => {
    const server = fakeServer();
    server.offline = true;
    await submit(note("x".repeat(10)));
    server.offline = false;
    server.answer = () => Response.json({ error: "A note can have at most 2,000 characters" }, { status: 400 });
    await flushOutbox();
    await flushOutbox();
    expect(server.sent).toHaveLength(1);
    expect(await pendingOps(BOOK)).toEqual([]);
    expect(await listProblems(BOOK)).toMatchObject([{ message: "A note can have at most 2,000 characters", words: "xxxxxxxxxx" }]);
  });

  it("keeps an offline edit that lost to a later one elsewhere, with its words, and sends nothing more", async () => {
    const server = fakeServer();
    server.offline = true;
    const edit = {
      kind: "edit" as const,
      bookId: BOOK,
      clientId: crypto.randomUUID(),
      editedAt: Date.now(),
      target: { id: 7 },
      patch: { note: "My offline wording" },
      before: null,
    };
    await submit(edit);
    server.offline = false;
    server.answer = () =>
      Response.json(
        { error: EDITED_ELSEWHERE, status: "edited-elsewhere", annotation: { id: 7, note: "The laptop's wording" } },
        { status: 409 },
      );
    await flushOutbox();
    expect(await pendingOps(BOOK)).toEqual([]);
    expect(await listProblems(BOOK)).toMatchObject([{ message: EDITED_ELSEWHERE, words: "My offline wording" }]);
  });

  it("sends a change made online without its time (the server's clock orders it), and a waited one with it", async () => {
    const server = fakeServer();
    const edit = (note: string) => ({
      kind: "edit" as const,
      bookId: BOOK,
      clientId: crypto.randomUUID(),
      editedAt: 5_000,
      target: { id: 7 },
      patch: { note },
      before: null,
    });
    expect((await submit(edit("Online"))).outcome).toBe("sent");
    expect(await saveReadingPosition(BOOK, 4, 5_000)).toBe(true);
    expect(server.sent.map((s) => s.body)).toEqual([{ note: "Online" }, { page: 4 }]);
    // Its first try got through but the answer was lost; sent again with its time, it "loses" to itself: no problem.
    server.offline = true;
    await submit(edit("Mine already"));
    server.offline = false;
    server.answer = (sent) =>
      sent.method === "PATCH"
        ? Response.json(
            { error: EDITED_ELSEWHERE, status: "edited-elsewhere", annotation: { id: 7, note: "Mine already" } },
            { status: 409 },
          )
        : null;
    await flushOutbox();
    expect(server.sent.at(-1)?.body).toEqual({ note: "Mine already", editedAt: 5_000 });
    expect(await pendingOps(BOOK)).toEqual([]);
    expect(await listProblems(BOOK)).toEqual([]);
  });

  it("keeps one position per book, the latest, until the server answers", async () => {
    const server = fakeServer();
    server.offline = true;
    expect(await saveReadingPosition(BOOK, 3, 1_000)).toBe(false);
    expect(await saveReadingPosition(BOOK, 5, 2_000)).toBe(false);
    server.offline = false;
    await flushOutbox();
    expect(server.sent.map((s) => s.body)).toEqual([{ page: 5, editedAt: 2_000 }]);
    await flushOutbox();
    expect(server.sent).toHaveLength(1);
  });
});

describe("isOfflineError", () => {
  it("is a network failure or a 503 while offline; never a refusal", () => {
    expect(isOfflineError(new TypeError("Failed to fetch"))).toBe(true);
    expect(isOfflineError(new ReaderApiError("Network error", 0))).toBe(true);
    expect(isOfflineError(new ReaderApiError("Service unavailable", 503))).toBe(false);
    expect(isOfflineError(new ReaderApiError("Not found", 404))).toBe(false);
    expect(isOfflineError(new ReaderApiError("Too many", 429))).toBe(false);
    vi.stubGlobal("navigator", { onLine: false });
    expect(isOfflineError(new ReaderApiError("Service unavailable", 503))).toBe(true);
    expect(isOfflineError(new Response(null, { status: 503 }))).toBe(true);
    expect(isOfflineError(new ReaderApiError("Bad", 400))).toBe(false);
  });
});
