import { afterEach, describe, expect, it, vi } from "vitest";
import { currentRequestId, log, withRequestId } from "../../workers/kernel/log.ts";
import { api, client } from "./helpers.ts";

// One logger for the Worker (workers/kernel/log.ts): a JSON line per event, with the id of the
// request it belongs to; every answer names that id.

afterEach(() => vi.restoreAllMocks());

describe("the request id and the log", () => {
  it("answers every request with its id, Cloudflare's ray id where the request has one", async () => {
    const plain = await client().api.health.$get();
    expect(plain.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const other = await client().api.health.$get();
    expect(other.headers.get("X-Request-Id")).not.toBe(plain.headers.get("X-Request-Id"));
    // Raw: a path the API does not have.
    const rayed = await api("/api/nothing-here", { headers: { "cf-ray": "8f1e2d3c4b5a6978-LHR" } });
    expect(rayed.status).toBe(404);
    expect(rayed.headers.get("X-Request-Id")).toBe("8f1e2d3c4b5a6978-LHR");
    // A client's own "cf-ray" that is not one is not echoed into our headers and logs.
    const forged = await client().api.health.$get(undefined, { headers: { "cf-ray": "<script>alert(1)</script>" } });
    expect(forged.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes one JSON line an event, with the request's id and the error described", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((text: string) => void lines.push(text));
    await withRequestId("req-1", async () => {
      await Promise.resolve();
      expect(currentRequestId()).toBe("req-1");
      log.error("Usage event not recorded", { schoolId: 7, error: new Error("D1 is away") });
    });
    expect(currentRequestId()).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: "error",
      message: "Usage event not recorded",
      requestId: "req-1",
      schoolId: 7,
      error: { name: "Error", message: "D1 is away" },
    });
  });
});
