import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountMenu } from "../../app/components/school/account-menu.tsx";
import { call } from "../../app/lib/api-client.ts";
import { forgetOfflineShell } from "../../app/lib/offline/app-shell.ts";
import { fetchPageList } from "../../app/lib/reader/reader-api.ts";
import { keepPage, storePage } from "../../app/sw/shell-cache.ts";
import { assetPathsIn, PAGES_CACHE, pageOfData, routeOf } from "../../app/sw/shell-rules.ts";
import { renderInApp } from "./render.tsx";

const ORIGIN = "https://lincoln-high.lectern.test";
const MAIN = "https://lectern.test";
const ASSETS = "lectern-shell-assets-test";

/** The Cache API in memory: happy-dom has none. Keys are URLs, as the shell uses them. */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    const key = (request: RequestInfo | URL) =>
      typeof request === "string" ? request : request instanceof URL ? request.href : request.url;
    return {
      match: async (request: RequestInfo | URL) => store.get(key(request))?.clone(),
      put: async (request: RequestInfo | URL, response: Response) => void store.set(key(request), response),
      delete: async (request: RequestInfo | URL) => store.delete(key(request)),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    };
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
  urls(name: string) {
    return [...(this.stores.get(name)?.keys() ?? [])];
  }
}

const html = (body: string, init: ResponseInit = {}) =>
  new Response(`<!doctype html><html><head>${body}</head></html>`, {
    status: 200,
    ...init,
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "script-src 'nonce-abc'", ...init.headers },
  });

const PAGE_HTML = `<link rel="stylesheet" href="/assets/root-AbCdEf12.css"/><link rel="modulepreload" href="/assets/chunk-ZyXwVu98.js"/><script nonce="abc">import("/assets/manifest-12345678.js");</script>`;

let caches: MemoryCaches;
let fetched: string[];

beforeEach(() => {
  caches = new MemoryCaches();
  fetched = [];
  vi.stubGlobal("caches", caches);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      fetched.push(url);
      if (url.endsWith(".css"))
        return new Response("body{font:url(/assets/font-0a1b2c3d.woff2)}", { headers: { "Content-Type": "text/css" } });
      // The preloaded chunk imports a sibling and loads a lazy part with import() (as the build writes
      // it: backquotes, inside its preload helper); the lazy part imports the sibling too.
      if (url.endsWith("/assets/chunk-ZyXwVu98.js"))
        return new Response('import{a}from"./dep-11aa22bb.js";const l=()=>N(()=>import(`./lazy-33cc44dd.js`),__vite__mapDeps([0]));', {
          headers: { "Content-Type": "text/javascript" },
        });
      if (url.endsWith("/assets/lazy-33cc44dd.js"))
        return new Response('import{a}from"./dep-11aa22bb.js";export const b=1;', { headers: { "Content-Type": "text/javascript" } });
      if (url.includes("/assets/")) return new Response("code", { headers: { "Content-Type": "text/javascript" } });
      if (url.endsWith("/offline")) return html("<title>You are offline</title>");
      return html(PAGE_HTML);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const navigate = (url: string, method = "GET") => routeOf({ url, method, mode: "navigate" }, new URL(url).origin);
const load = (url: string) => routeOf({ url, method: "GET", mode: "cors" }, new URL(url).origin);

describe("which requests the offline shell answers", () => {
  it.each([
    `${MAIN}/schools/lincoln-high/dashboard`,
    `${MAIN}/schools/lincoln-high/books`,
    `${MAIN}/schools/lincoln-high/books/12`,
    `${MAIN}/schools/lincoln-high/dashboard/book/12`,
    `${MAIN}/schools/lincoln-high/dashboard/book/12/view`,
    `${ORIGIN}/dashboard`,
    `${ORIGIN}/dashboard/book/12/view`,
    `${ORIGIN}/dashboard?subject=science`,
  ])("keeps the school page %s (network first, the kept copy offline)", (url) => {
    expect(navigate(url)).toBe("shell-page");
  });

  it.each([
    `${MAIN}/schools/lincoln-high`,
    `${MAIN}/lincoln-high`,
    `${MAIN}/schools/lincoln-high/account`,
    `${MAIN}/schools/lincoln-high/my-school`,
    `${ORIGIN}/account`,
    `${ORIGIN}/`,
  ])("never keeps %s (sign-in, the teacher's account, the coordinator's page): network, the offline page when there is none", (url) => {
    expect(navigate(url)).toBe("other-page");
  });

  it.each([
    `${MAIN}/admin`,
    `${MAIN}/admin/school/3`,
    `${MAIN}/superadmin/dashboard`,
    "https://admin.lectern.test/admin",
    `${MAIN}/api/teacher/offline`,
    `${ORIGIN}/api/books/12/pages/3?w=1024`,
  ])("leaves %s to the browser, never stored", (url) => {
    expect(navigate(url)).toBe("pass");
    expect(load(url)).toBe("pass");
  });

  it("leaves page images, page texts and every other API answer to the browser", () => {
    for (const path of ["/api/books/12/pages/3?w=1024", "/api/books/12/pages/3/text", "/api/books/12/cover/thumb", "/api/teacher/me"])
      expect(load(`${ORIGIN}${path}`)).toBe("pass");
  });

  it("keeps the build's hashed files only, cache first; never a form post nor another origin", () => {
    expect(load(`${ORIGIN}/assets/root-AbCdEf12.js`)).toBe("asset");
    expect(load(`${ORIGIN}/assets/island-page-reader-Q1w2E3r4.js`)).toBe("asset");
    expect(load(`${ORIGIN}/favicon.svg`)).toBe("pass");
    expect(load(`${ORIGIN}/pdfjs/pdf.worker.mjs`)).toBe("pass");
    expect(navigate(`${ORIGIN}/dashboard`, "POST")).toBe("pass");
    expect(routeOf({ url: "https://cdn.example/assets/x-AbCdEf12.js", method: "GET", mode: "cors" }, ORIGIN)).toBe("pass");
  });

  it("turns a page's data for an in-app navigation into a page load when offline (never stored); keeps the route list of a build", () => {
    expect(load(`${ORIGIN}/dashboard/book/12.data?_routes=routes%2Fschool-book`)).toBe("page-data");
    expect(load(`${MAIN}/schools/lincoln-high/books.data`)).toBe("page-data");
    expect(pageOfData(new URL(`${ORIGIN}/dashboard.data?subject=science&_routes=routes%2Fschool-dashboard`))).toBe(
      "/dashboard?subject=science",
    );
    expect(pageOfData(new URL(`${ORIGIN}/_root.data`))).toBe("/");
    expect(load(`${MAIN}/admin/school/3.data`)).toBe("pass");
    expect(routeOf({ url: `${ORIGIN}/dashboard.data`, method: "POST", mode: "cors" }, ORIGIN)).toBe("pass");
    expect(load(`${ORIGIN}/__manifest?paths=%2Fdashboard&version=abc123`)).toBe("asset");
  });

  it("finds the build files a page names: styles, preloads, and the imports of its inline script", () => {
    expect(assetPathsIn(PAGE_HTML).sort()).toEqual([
      "/assets/chunk-ZyXwVu98.js",
      "/assets/manifest-12345678.js",
      "/assets/root-AbCdEf12.css",
    ]);
  });
});

describe("keeping a page", () => {
  it("keeps the page with its own headers (its CSP nonce), the files it names and the chunks they import (lazy ones too), the fonts its styles name, and the school's offline page", async () => {
    expect(await keepPage(`${ORIGIN}/dashboard/book/12/view`, ASSETS)).toBe(true);
    expect(caches.urls(PAGES_CACHE).sort()).toEqual([`${ORIGIN}/dashboard/book/12/view`, `${ORIGIN}/offline`]);
    expect(caches.urls(ASSETS).sort()).toEqual(
      ["chunk-ZyXwVu98.js", "dep-11aa22bb.js", "font-0a1b2c3d.woff2", "lazy-33cc44dd.js", "manifest-12345678.js", "root-AbCdEf12.css"].map(
        (file) => `${ORIGIN}/assets/${file}`,
      ),
    );
    // Each file is fetched once, however many name it.
    expect(fetched.filter((url) => url.endsWith("/dep-11aa22bb.js"))).toHaveLength(1);
    const kept = await (await caches.open(PAGES_CACHE)).match(`${ORIGIN}/dashboard/book/12/view`);
    expect(kept?.headers.get("Content-Security-Policy")).toBe("script-src 'nonce-abc'");
    expect(await kept?.text()).toContain('nonce="abc"');
  });

  it("never fetches nor keeps an admin page, the API or the sign-in page", async () => {
    for (const url of [`${MAIN}/admin/school/3`, `${ORIGIN}/api/books/12/pages/1`, `${MAIN}/schools/lincoln-high`, `${ORIGIN}/account`])
      expect(await keepPage(url, ASSETS)).toBe(false);
    expect(fetched).toEqual([]);
    expect(await caches.keys()).toEqual([]);
  });

  it.each([
    ["a redirect to the sign-in page", () => Object.defineProperty(html("<title>Sign in</title>"), "redirected", { value: true })],
    ["a 404", () => html("<title>Not found</title>", { status: 404 })],
    ["a 401 answer", () => Response.json({ error: "Signed out" }, { status: 401 })],
    ["JSON", () => Response.json({ books: [] })],
  ])("does not keep %s", async (_what, answer) => {
    expect(await storePage(`${ORIGIN}/dashboard`, answer(), ASSETS)).toBe(false);
    expect(caches.urls(PAGES_CACHE)).toEqual([]);
  });

  it("drops the kept copy of a page the server no longer gives the teacher", async () => {
    await keepPage(`${ORIGIN}/dashboard`, ASSETS);
    vi.stubGlobal("fetch", async () => Object.defineProperty(html("<title>Sign in</title>"), "redirected", { value: true }));
    expect(await keepPage(`${ORIGIN}/dashboard`, ASSETS)).toBe(false);
    expect(caches.urls(PAGES_CACHE)).toEqual([`${ORIGIN}/offline`]);
  });
});

describe("forgetting the shell", () => {
  async function keepSome() {
    await keepPage(`${ORIGIN}/dashboard`, ASSETS);
    await caches.open("someone-elses-cache");
  }

  it("empties every cache of the shell and nothing else", async () => {
    await keepSome();
    await forgetOfflineShell();
    expect(await caches.keys()).toEqual(["someone-elses-cache"]);
  });

  it("happens when the teacher signs out", async () => {
    await keepSome();
    vi.stubGlobal("fetch", async () => new Response(null, { status: 204 }));
    const user = userEvent.setup();
    renderInApp(<AccountMenu teacherName="Ada Lovelace" basePath="/schools/lincoln-high" />, {
      path: "/schools/lincoln-high/dashboard",
      routes: { "/schools/lincoln-high": <h1>Login page</h1> },
    });
    await user.click(screen.getByRole("button", { name: "Account menu for Ada Lovelace" }));
    await user.click(screen.getByRole("menuitem", { name: "Sign out" }));
    await screen.findByRole("heading", { name: "Login page" });
    expect(await caches.keys()).toEqual(["someone-elses-cache"]);
  });

  it.each([
    ["the typed client", () => call(() => fetch("/api/teacher/me") as never, "Failed")],
    ["the reader's API", () => fetchPageList(12)],
  ])("happens when an API call through %s answers 401", async (_what, request) => {
    await keepSome();
    vi.stubGlobal("fetch", async () => Response.json({ error: "Signed out" }, { status: 401 }));
    await expect(request()).rejects.toThrow();
    await waitFor(async () => expect(await caches.keys()).toEqual(["someone-elses-cache"]));
  });

  it("does not happen on any other refusal", async () => {
    await keepSome();
    vi.stubGlobal("fetch", async () => Response.json({ error: "Reading limit reached" }, { status: 429 }));
    await expect(fetchPageList(12)).rejects.toThrow();
    expect(caches.urls(PAGES_CACHE).length).toBe(2);
  });
});
