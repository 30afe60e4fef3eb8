import { Hono } from "hono";
import { API_BASE, API_SCHOOL_BY_SLUG } from "../http/tenancy.ts";
import type { AppEnv } from "../kernel/context.ts";
import { adminAuthApi } from "./admin-auth.ts";
import { adminBooksApi } from "./admin-books.ts";
import { adminCatalogueApi } from "./admin-catalogue.ts";
import { adminPageSetsApi } from "./admin-page-sets.ts";
import { adminStatsApi } from "./admin-stats.ts";
import { annotationsApi } from "./annotations.ts";
import { bookFilesApi } from "./book-files.ts";
import { bookPagesApi } from "./book-pages.ts";
import { codeRedeemApi } from "./code-redeem.ts";
import { codesApi } from "./codes.ts";
import { coordinatorApi } from "./coordinator.ts";
import { ownAccountErasureApi, schoolErasureApi } from "./erasure.ts";
import { favouritesApi } from "./favourites.ts";
import { leaksApi } from "./leaks.ts";
import { libraryApi } from "./library.ts";
import { licencesApi } from "./licences.ts";
import { coordinatorOfflineLoansApi, offlineLoansApi, schoolOfflineLoansApi, teacherOfflineApi } from "./offline-loans.ts";
import { operatorApi } from "./operator.ts";
import { readingProgressApi } from "./reading-progress.ts";
import { reportsApi } from "./reports.ts";
import { coordinatorExportsApi, schoolExportsApi, teacherDataApi } from "./school-exports.ts";
import { schoolTeachersApi } from "./school-teachers.ts";
import { schoolsApi } from "./schools.ts";
import { coordinatorSeatsApi, schoolSeatsApi } from "./seat-holders.ts";
import { ssoApi } from "./sso.ts";
import { superadminApi } from "./superadmin.ts";
import { teacherApi } from "./teacher.ts";
import { teacherAccountApi } from "./teacher-account.ts";

export const api = new Hono<AppEnv>()
  .basePath(API_BASE)
  .get("/health", (c) => c.json({ ok: true }))
  .route("/admin/stats", adminStatsApi)
  .route("/admin", adminAuthApi)
  .route(`${API_SCHOOL_BY_SLUG}/:slug`, libraryApi)
  .route(`${API_SCHOOL_BY_SLUG}/:slug/coordinator`, coordinatorApi)
  .route(`${API_SCHOOL_BY_SLUG}/:slug/coordinator`, coordinatorSeatsApi)
  .route(`${API_SCHOOL_BY_SLUG}/:slug/coordinator`, coordinatorExportsApi)
  .route(`${API_SCHOOL_BY_SLUG}/:slug/coordinator`, coordinatorOfflineLoansApi)
  .route("/schools", schoolsApi)
  // After the schools routes: their /slug/:slug and /:id paths come first.
  .route("/schools", schoolTeachersApi)
  .route("/schools", schoolSeatsApi)
  .route("/schools", schoolOfflineLoansApi)
  .route("/schools", schoolExportsApi)
  .route("/schools", schoolErasureApi)
  .route("/books", adminCatalogueApi)
  .route("/books", adminBooksApi)
  .route("/books", adminPageSetsApi)
  .route("/books", bookPagesApi)
  .route("/books", bookFilesApi)
  .route("/books", favouritesApi)
  .route("/books", annotationsApi)
  .route("/books", offlineLoansApi)
  .route("/reading-progress", readingProgressApi)
  .route("/reports", reportsApi)
  .route("/leaks", leaksApi)
  .route("/licences", licencesApi)
  // Redeeming first: the admins' code routes each carry their own guard (docs/decisions/0053).
  .route("/codes", codeRedeemApi)
  .route("/codes", codesApi)
  .route("/superadmin", superadminApi)
  .route("/operator", operatorApi)
  .route("/auth/oidc", ssoApi)
  .route("/teacher", teacherApi)
  .route("/teacher", teacherAccountApi)
  .route("/teacher", ownAccountErasureApi)
  .route("/teacher", teacherDataApi)
  .route("/teacher", teacherOfflineApi);

// Unknown paths and errors are answered by the pipeline (workers/http/pipeline.ts), as JSON under /api.
export type Api = typeof api;
