import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { SCHOOLS } from "../workers/http/tenancy.ts";

/** The signed-in school pages, once under `prefix` with route ids ending in `suffix`. */
function schoolPages(prefix: string, suffix: string) {
  return [
    route(`${prefix}dashboard`, "routes/school-dashboard.tsx", { id: `school-dashboard${suffix}` }),
    route(`${prefix}dashboard/book/:bookId`, "routes/school-book.tsx", { id: `school-book${suffix}` }),
    route(`${prefix}books`, "routes/school-library.tsx", { id: `school-library${suffix}` }),
    route(`${prefix}books/:id`, "routes/school-library-book.tsx", { id: `school-library-book${suffix}` }),
    route(`${prefix}account`, "routes/school-account.tsx", { id: `school-account${suffix}` }),
    route(`${prefix}my-school`, "routes/school-coordinator.tsx", { id: `school-coordinator${suffix}` }),
  ];
}

/**
 * Any other page under a school: its 'Page Not Found' inside the school's layout. On the
 * subdomain a bare `*` would take every host's unknown paths from the site-wide 404, so only
 * the school's own sections are caught there.
 */
function schoolNotFound() {
  return [
    route(`${SCHOOLS}/:slug/*`, "routes/school-not-found.tsx", { id: "school-not-found" }),
    ...["dashboard", "books", "account", "my-school"].map((section) =>
      route(`${section}/*`, "routes/school-not-found.tsx", { id: `school-not-found-${section}` }),
    ),
  ];
}

// School pages exist twice: under /schools/{slug} on the main host, and at the root of the
// school's own subdomain ({slug}.{APP_DOMAIN}), where the Worker resolves the school from the host.
export default [
  index("routes/home.tsx"),
  route(`${SCHOOLS}/:slug`, "routes/school-portal.tsx", { id: "school-portal" }),
  route(`${SCHOOLS}/:slug/limit-reached`, "routes/limit-reached.tsx", { id: "limit-reached" }),
  route("limit-reached", "routes/limit-reached.tsx", { id: "limit-reached-subdomain" }),
  // Signed-in teacher pages: the layout's middleware checks the session once per request.
  layout("routes/school-app.tsx", [...schoolPages(`${SCHOOLS}/:slug/`, ""), ...schoolPages("", "-subdomain"), ...schoolNotFound()]),
  // The reader is full screen, outside the school layout; its loader checks the session itself.
  route(`${SCHOOLS}/:slug/dashboard/book/:bookId/view`, "routes/school-reader.tsx", { id: "school-reader" }),
  route("dashboard/book/:bookId/view", "routes/school-reader.tsx", { id: "school-reader-subdomain" }),
  // What the offline app shows for a school page it never kept (docs/decisions/0049); no layout, no script.
  route(`${SCHOOLS}/:slug/offline`, "routes/school-offline.tsx", { id: "school-offline" }),
  route("offline", "routes/school-offline.tsx", { id: "school-offline-subdomain" }),
  route("admin/login", "routes/admin-login.tsx"),
  route("superadmin/login", "routes/superadmin-login.tsx"),
  route("superadmin/dashboard", "routes/superadmin-dashboard.tsx"),
  layout("routes/admin-layout.tsx", [
    route("admin", "routes/admin-home.tsx", { id: "admin-home" }),
    route("admin/all-schools", "routes/admin-schools.tsx", { id: "admin-all-schools" }),
    route("admin/books", "routes/admin-books.tsx"),
    route("admin/books/import", "routes/admin-import-books.tsx"),
    route("admin/add-school", "routes/admin-add-school.tsx"),
    route("admin/add-books", "routes/admin-add-book.tsx"),
    route("admin/book/:id", "routes/admin-book.tsx", { id: "admin-book" }),
    route("admin/assign-book", "routes/admin-assign-book.tsx"),
    route("admin/increase-login-count", "routes/admin-increase-login-count.tsx"),
    route("admin/preview-add-schools", "routes/admin-import-schools.tsx"),
    route("admin/delete-school", "routes/admin-delete-school.tsx"),
    route("admin/schools", "routes/admin-schools.tsx", { id: "admin-schools" }),
    route("admin/assign-books/:schoolId", "routes/admin-assign-books.tsx"),
    route("admin/books/:id", "routes/admin-book.tsx", { id: "admin-books-id" }),
    route("admin/school/:id", "routes/admin-school.tsx", { id: "admin-school" }),
    route("admin/school/:id/info", "routes/admin-school.tsx", { id: "admin-school-info" }),
    route("admin/leaks", "routes/admin-leaks.tsx"),
    route("admin/preparation", "routes/admin-preparation.tsx"),
    route("admin/licences", "routes/admin-licences.tsx"),
    route("admin/licences/import", "routes/admin-import-licences.tsx"),
    route("admin/codes", "routes/admin-codes.tsx"),
    route("admin/codes/new", "routes/admin-codes-new.tsx"),
    route("admin/codes/:id", "routes/admin-codes-batch.tsx"),
  ]),
  route("admin/pdf/:id", "routes/admin-reader.tsx"),
  route("admin/pdf-viewer/:id?", "routes/admin-pdf-viewer.tsx"),
  route(":slug", "routes/school-portal.tsx", { id: "school-portal-short" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
