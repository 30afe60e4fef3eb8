// Every admin route refuses a school's people (the review's R3, issue 41): a coordinator's cookie,
// the strongest a teacher holds, is 401 at every API route that is not a teacher's, public or
// sign-in route, with the coordinator's own school's id and slug in the path; and an admin's cookie
// is no admin on a school's subdomain (tenant-session: no admin there), so the same routes are 401
// there too. The operator's routes answer 404 to any session (they take only the operator's secret). Nothing is written either way. The routes are the API's own list, as in
// origin-check.test.ts: a route added later is in the sweep by itself.
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { api as apiRoutes } from "../../workers/api/index.ts";
import { auditLog } from "../../workers/db/schema.ts";
import { api, client, createSchool, db, signedInAdmin, signedInTeacher } from "./helpers.ts";

/** A teacher's, the public's and the sign-ins' routes: the rest are the admins'. */
const SCHOOL_ROUTES = [
  /^\/api\/schools\/slug\/:slug(\/|$)/,
  /^\/api\/books\/:id\/(pages|seat|outline|search|thumbnail|pdf|favourite|annotations|offline)(\/|$)/,
  /^\/api\/reading-progress\//,
  /^\/api\/auth\//,
  /^\/api\/teacher\//,
  /^\/api\/admin\/(login|logout)$/,
  // A school's coordinator redeems a bookstore code for their school (an admin may too, naming one).
  /^\/api\/codes\/redeem$/,
  /^\/api\/health$/,
];

/** The operator's routes (backups, decision 46) open to no session at all: 404, as an unknown path, to every cookie. */
const OPERATOR_ROUTE = /^\/api\/operator\//;
const expectedStatus = (path: string) => (OPERATOR_ROUTE.test(path) ? 404 : 401);

const adminRoutes = () =>
  [...new Set(apiRoutes.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`))].filter(
    (route) => !SCHOOL_ROUTES.some((pattern) => pattern.test(route.split(" ")[1]!)),
  );

const audited = async () => (await db().select({ n: count() }).from(auditLog))[0]?.n;

describe("the admins' API routes", () => {
  it("are 401 for a coordinator, with their own school's ids in the path, and write nothing", async () => {
    const { cookie: adminCookie } = await signedInAdmin();
    const school = await createSchool({ teacherLimit: 20 });
    const coordinator = await signedInTeacher(school, "Cora Coordinator");
    const made = await client({ cookie: adminCookie }).api.schools[":id"].teachers[":teacherId"].coordinator.$post({
      param: { id: String(school.id), teacherId: String(coordinator.teacher.id) },
    });
    expect(made.status).toBe(200);
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThan(70);
    const before = await audited();
    for (const route of routes) {
      const [method, path] = route.split(" ") as [string, string];
      const url = path
        .replace(/:(id|schoolId)(\{[^}]*\})?/g, String(school.id))
        .replace(/:teacherId(\{[^}]*\})?/g, String(coordinator.teacher.id))
        .replace(/:[A-Za-z]+(\{[^}]*\})?/g, "1");
      for (const origin of ["https://lectern.test", `https://${school.slug}.lectern.test`]) {
        // Every admin route walked by path, here and below (and a school's host): raw calls.
        const response = await api(`${origin}${url}`, { method, cookie: coordinator.cookie, body: method === "GET" ? undefined : {} });
        expect(response.status, `${method} ${origin}${url}`).toBe(expectedStatus(path));
      }
    }
    expect(await audited()).toBe(before);
    // The coordinator's session lived through the sweep: the 401s were the routes', not a lost session.
    const teachers = client(coordinator).api.schools.slug[":slug"].coordinator.teachers;
    expect((await teachers.$get({ param: { slug: school.slug } })).status).toBe(200);
  });

  it("are 401 for an admin's cookie on a school's subdomain, and write nothing", async () => {
    const { cookie } = await signedInAdmin("superadmin");
    const school = await createSchool();
    const before = await audited();
    for (const route of adminRoutes()) {
      const [method, path] = route.split(" ") as [string, string];
      const url = path.replace(/:(id|schoolId)(\{[^}]*\})?/g, String(school.id)).replace(/:[A-Za-z]+(\{[^}]*\})?/g, "1");
      const response = await api(`https://${school.slug}.lectern.test${url}`, { method, cookie, body: method === "GET" ? undefined : {} });
      expect(response.status, `${method} ${url}`).toBe(expectedStatus(path));
    }
    expect(await audited()).toBe(before);
    expect((await client({ cookie }).api.admin.me.$get()).status).toBe(200);
  });
});
