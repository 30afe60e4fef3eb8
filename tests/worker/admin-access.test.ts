import { beforeAll, describe, expect, it } from "vitest";
import { api, createBook, createSchool, signedInAdmin, signedInTeacher } from "./helpers.ts";

// Every admin endpoint: no session → 401, a teacher's session → 401, an admin → allowed (anything
// but 401/403), and superadmin-only endpoints refuse plain admins with 403. New admin endpoints
// belong in this table.

type Call = { method: string; path: () => string; body?: () => unknown; superadmin?: boolean };

let schoolId = 0;
let schoolSlug = "";
let bookId = 0;
const ids = () => ({ schoolId, schoolSlug, bookId });

const ENDPOINTS: Call[] = [
  { method: "GET", path: () => "/api/admin/me" },
  { method: "GET", path: () => "/api/admin/stats/teacher-count" },
  { method: "GET", path: () => "/api/schools?page=1" },
  { method: "GET", path: () => "/api/schools/search?query=test" },
  { method: "GET", path: () => "/api/schools/next-id" },
  { method: "GET", path: () => `/api/schools/${ids().schoolId}` },
  { method: "GET", path: () => `/api/schools/${ids().schoolId}/books` },
  { method: "GET", path: () => `/api/schools/slug/${ids().schoolSlug}/login-history?days=7` },
  { method: "POST", path: () => "/api/schools", body: () => ({ schoolName: "X" }) },
  { method: "PUT", path: () => `/api/schools/${ids().schoolId}`, body: () => ({ city: "Dayton" }) },
  { method: "POST", path: () => "/api/schools/validate-import", body: () => ({ rows: [] }) },
  { method: "POST", path: () => "/api/schools/bulk", body: () => ({ rows: [] }) },
  { method: "POST", path: () => "/api/schools/save-generated", body: () => ({ rows: [] }) },
  { method: "POST", path: () => "/api/schools/update-duplicates", body: () => ({ rows: [] }) },
  { method: "POST", path: () => "/api/schools/logins", body: () => ({ schoolId: ids().schoolId }) },
  { method: "POST", path: () => `/api/schools/logins/${ids().schoolId}/increase-login-count`, body: () => ({ by: 1 }) },
  { method: "POST", path: () => `/api/schools/logins/${ids().schoolId}/increase-total-login`, body: () => ({ by: 1 }) },
  { method: "GET", path: () => `/api/schools/${ids().schoolId}/teachers` },
  { method: "POST", path: () => `/api/schools/${ids().schoolId}/teachers/999999/disable` },
  { method: "POST", path: () => `/api/schools/${ids().schoolId}/teachers/999999/enable` },
  { method: "POST", path: () => `/api/schools/${ids().schoolId}/teachers/999999/sign-out` },
  { method: "POST", path: () => `/api/schools/${ids().schoolId}/teachers/999999/send-reset` },
  { method: "DELETE", path: () => `/api/schools/${ids().schoolId}/teachers/999999` },
  { method: "GET", path: () => "/api/books?page=1" },
  { method: "GET", path: () => "/api/books/search?query=test" },
  { method: "POST", path: () => "/api/books", body: () => ({ title: "" }) },
  { method: "GET", path: () => `/api/books/${ids().bookId}` },
  { method: "PUT", path: () => `/api/books/${ids().bookId}`, body: () => ({ subject: "Art" }) },
  { method: "PUT", path: () => `/api/books/${ids().bookId}/upload/thumbnail` },
  { method: "POST", path: () => `/api/books/${ids().bookId}/upload/pdf`, body: () => ({ size: 0 }) },
  { method: "POST", path: () => `/api/books/${ids().bookId}/assign-all-schools`, body: () => ({}) },
  { method: "GET", path: () => `/api/books/access?bookId=${ids().bookId}` },
  { method: "POST", path: () => "/api/books/access", body: () => ({ schoolIds: [], bookIds: [] }) },
  { method: "DELETE", path: () => `/api/books/access/${ids().schoolId}/${ids().bookId}` },
  { method: "GET", path: () => "/api/superadmin/admins", superadmin: true },
  { method: "POST", path: () => "/api/superadmin/admins", body: () => ({}), superadmin: true },
  { method: "PUT", path: () => "/api/superadmin/admins/999999", body: () => ({}), superadmin: true },
  { method: "GET", path: () => "/api/superadmin/audit", superadmin: true },
  { method: "GET", path: () => "/api/superadmin/stats", superadmin: true },
  // Destructive ones last, against rows made for them.
  { method: "DELETE", path: () => `/api/books/${ids().bookId}` },
  { method: "DELETE", path: () => `/api/schools/${ids().schoolId}` },
];

let teacherCookie = "";
let adminCookie = "";
let superCookie = "";

beforeAll(async () => {
  const school = await createSchool();
  schoolId = school.id;
  schoolSlug = school.slug;
  bookId = (await createBook({ title: "Access Table Book" }, [school.id])).id;
  teacherCookie = (await signedInTeacher(school)).cookie;
  adminCookie = (await signedInAdmin("admin")).cookie;
  superCookie = (await signedInAdmin("superadmin")).cookie;
});

/** A table of admin endpoints walked by path: raw calls. */
function call(endpoint: Call, cookie?: string) {
  return api(endpoint.path(), { method: endpoint.method, body: endpoint.body?.(), cookie });
}

describe.each(ENDPOINTS)("$method $path", (endpoint) => {
  it("refuses strangers and teachers, and answers the right admins", async () => {
    expect((await call(endpoint)).status).toBe(401);
    expect((await call(endpoint, teacherCookie)).status).toBe(401);
    const asAdmin = (await call(endpoint, adminCookie)).status;
    if (endpoint.superadmin) {
      expect(asAdmin).toBe(403);
      expect([401, 403]).not.toContain((await call(endpoint, superCookie)).status);
    } else {
      expect([401, 403]).not.toContain(asAdmin);
    }
  });
});
