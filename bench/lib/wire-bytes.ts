import type { CDPSession } from "playwright-core";

/** What a response carried, by its Content-Type. */
export type WireKind = "html" | "js" | "css" | "json" | "image" | "pdf" | "other";
type Request = {
  url: string;
  kind: WireKind;
  range: string | null;
  status?: number;
  startedAt: number;
  chunks: [number, number][];
  done: boolean;
};

function kindOf(mimeType: string): WireKind {
  if (mimeType.includes("html")) return "html";
  if (mimeType.includes("javascript")) return "js";
  if (mimeType.includes("css")) return "css";
  if (mimeType.includes("json")) return "json";
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.includes("pdf")) return "pdf";
  return "other";
}

/**
 * Every response the page receives, as bytes on the wire (headers and body) with the time each
 * part arrived, from Chromium's own network events: the HTML, scripts, stylesheets, API answers,
 * images and PDF ranges alike.
 */
export async function recordWireBytes(cdp: CDPSession) {
  const requests = new Map<string, Request>();
  // CDP times are monotonic seconds; wallTime on each request puts them on the page's clock.
  let wallMinusMonotonicMs = 0;
  const sum = (r: Request, untilMs = Number.POSITIVE_INFINITY) => r.chunks.reduce((n, [at, bytes]) => (at <= untilMs ? n + bytes : n), 0);
  const add = (id: string, seconds: number, bytes: number) => {
    if (bytes > 0) requests.get(id)?.chunks.push([seconds * 1000, bytes]);
  };
  cdp.on("Network.requestWillBeSent", (e) => {
    wallMinusMonotonicMs = (e.wallTime - e.timestamp) * 1000;
    if (!e.request.url.startsWith("http")) return;
    const range = Object.entries(e.request.headers).find(([name]) => name.toLowerCase() === "range")?.[1] ?? null;
    // A redirect reuses the request id: the earlier hop keeps its bytes under its own key.
    const earlier = requests.get(e.requestId);
    if (earlier) requests.set(`${e.requestId}:${requests.size}`, earlier);
    requests.set(e.requestId, { url: e.request.url, kind: "other", range, startedAt: e.timestamp * 1000, chunks: [], done: false });
  });
  cdp.on("Network.responseReceived", (e) => {
    const request = requests.get(e.requestId);
    if (!request) return;
    request.status = e.response.status;
    request.kind = kindOf(e.response.mimeType);
    add(e.requestId, e.timestamp, e.response.encodedDataLength);
  });
  cdp.on("Network.dataReceived", (e) => add(e.requestId, e.timestamp, e.encodedDataLength));
  cdp.on("Network.loadingFinished", (e) => {
    const request = requests.get(e.requestId);
    if (!request) return;
    add(e.requestId, e.timestamp, e.encodedDataLength - sum(request));
    request.done = true;
  });
  cdp.on("Network.loadingFailed", (e) => {
    const request = requests.get(e.requestId);
    if (request) request.done = true;
  });
  await cdp.send("Network.enable");

  return {
    /** Bytes (in all and by kind) and requests up to `pageMs` on the page's performance.now() clock (all if omitted). */
    totals(timeOrigin: number, pageMs = Number.POSITIVE_INFINITY) {
      const untilMs = pageMs + timeOrigin - wallMinusMonotonicMs;
      const byKind: Partial<Record<WireKind, number>> = {};
      let bytes = 0;
      let count = 0;
      for (const r of requests.values()) {
        const n = sum(r, untilMs);
        if (r.startedAt <= untilMs) count++;
        if (!n) continue;
        bytes += n;
        byKind[r.kind] = (byKind[r.kind] ?? 0) + n;
      }
      return { bytes, requests: count, byKind };
    },
    inFlight: () => [...requests.values()].some((r) => !r.done),
    log: (timeOrigin: number) =>
      [...requests.values()].map((r) => ({
        url: r.url.replace(/^https?:\/\/[^/]+/, ""),
        kind: r.kind,
        range: r.range,
        status: r.status ?? null,
        startedMs: Math.round(r.startedAt + wallMinusMonotonicMs - timeOrigin),
        bytes: sum(r),
      })),
  };
}
