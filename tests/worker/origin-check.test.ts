import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { api as apiRoutes } from "../../workers/api/index.ts";
import { auditLog } from "../../workers/db/schema.ts";
import { api, db, signedInAdmin } from "./helpers.ts";

// The origin check runs once, in the pipeline, before any route (docs/decisions/0014, revision 2):
// no state-changing route can be without it, whichever file adds it.

const CHANGES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

describe("the origin check, once for every state change", () => {
  it("refuses every state-changing API route when another site or a script without an Origin calls it, with an admin's cookie, and writes nothing", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const routes = [...new Set(apiRoutes.routes.filter((r) => CHANGES.has(r.method)).map((r) => `${r.method} ${r.path}`))];
    // Every write the API has: if a route is added, it is in this list by itself.
    expect(routes.length).toBeGreaterThan(40);
    const audited = async () => (await db().select({ n: count() }).from(auditLog))[0]?.n;
    const before = await audited();
    for (const route of routes) {
      const [method, path] = route.split(" ") as [string, string];
      const url = path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, "1");
      for (const origin of ["https://evil.example", null]) {
        // Raw: every route, walked by its method and path, with the same empty body.
        const response = await api(url, { method, cookie, origin, body: {} });
        expect(response.status, `${method} ${url} from ${origin ?? "a script without an Origin"}`).toBe(403);
        expect(await response.json()).toEqual({ error: "This request did not come from this site." });
      }
    }
    expect(await audited()).toBe(before);
  });

  it("lets our own pages' calls through to the route, which then answers as it would", async () => {
    const { cookie } = await signedInAdmin();
    // Raw: a body missing every other field, which the typed client would not send.
    const response = await api("/api/schools", { method: "POST", cookie, body: { schoolName: "" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "Please enter the school name", field: "schoolName" });
  });
});
