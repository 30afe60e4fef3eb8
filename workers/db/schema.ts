import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are Unix epoch milliseconds: one integer type for every clock in the app.
const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`);

export const schools = sqliteTable(
  "schools",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    address1: text("address1").notNull().default(""),
    address2: text("address2"),
    address3: text("address3"),
    city: text("city").notNull().default(""),
    state: text("state").notNull().default(""),
    zipCode: text("zip_code").notNull().default(""),
    email: text("email").notNull().default(""),
    principal: text("principal"),
    teacherLimit: integer("teacher_limit").notNull().default(25),
    // How many signed-in sessions one teacher may hold at once; a new sign-in past it ends the oldest.
    sessionLimit: integer("session_limit").notNull().default(3),
    // Admin-adjustable counter of the spec's "total login count"; login_events holds the history.
    totalLogins: integer("total_logins").notNull().default(0),
    // The last UTC day (YYYY-MM-DD) a teacher of the school read: "no activity in 30 days" walks its index.
    lastActiveDay: text("last_active_day"),
    // The last usage batch the school's object flushed (docs/decisions/0024): D1 applies each number once.
    usageFlushSeq: integer("usage_flush_seq").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("schools_last_active_idx").on(t.lastActiveDay),
    // The admin list sorts by name (case-insensitively) and pages with LIMIT: an index walk, not a sort of every school.
    index("schools_name_idx").on(sql`${t.name} COLLATE NOCASE`),
  ],
);

export const books = sqliteTable(
  "books",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    author1: text("author1").notNull().default(""),
    author2: text("author2"),
    description: text("description").notNull().default(""),
    isbn: text("isbn"),
    gradeLevel: integer("grade_level"),
    subject: text("subject"),
    coverKey: text("cover_key"),
    pdfKey: text("pdf_key"),
    pdfSize: integer("pdf_size"),
    pageCount: integer("page_count"),
    // The ready page set teachers read (page_sets.id); null until the book's first one is complete.
    pageSetId: text("page_set_id"),
    // Added together with its PDF (the Add Books page): until that PDF's pages are accepted, a
    // refusal removes the book too, so a refused add leaves no empty book (complete-set.ts).
    provisional: integer("provisional", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }),
  },
  (t) => [index("books_created_at_idx").on(t.createdAt), index("books_title_idx").on(t.title)],
);

/**
 * The catalogue's one version (one row, id 1): raised by triggers on every insert, change and delete
 * of a book (migration 0020), whoever writes it. What is kept per school that shows books (the
 * dashboard's shelf, workers/reading/shelf-cache.ts) is stale once it moves; licences have each
 * school's own version in its object.
 */
export const catalogueState = sqliteTable("catalogue_state", {
  id: integer("id").primaryKey(),
  booksVersion: integer("books_version").notNull().default(0),
});

/**
 * A school's licence for a book (docs/decisions/0028): from `starts_on` to `ends_on` (UTC days,
 * YYYY-MM-DD, both included; no end: open-ended), for at most `seats` readers at once (null:
 * unlimited). Teachers see a book while its licence is active. One per (school, book): renewing
 * moves its dates. The table keeps its old name, book_access: every assignment became a licence.
 */
export const bookAccess = sqliteTable(
  "book_access",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schoolId: integer("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    startsOn: text("starts_on").notNull().default(sql`(date('now'))`),
    endsOn: text("ends_on"),
    seats: integer("seats"),
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`),
  },
  (t) => [
    uniqueIndex("book_access_school_book").on(t.schoolId, t.bookId),
    index("book_access_book_idx").on(t.bookId),
    index("book_access_ends_idx").on(t.endsOn),
  ],
);

/**
 * The reminders the scheduled job sent (docs/decisions/0028): one per licence, last day and notice
 * (30 or 7 days before). Claimed before the e-mail goes, so a retried or overlapping job sends it
 * once; a renewal's new last day is reminded of again.
 */
export const licenceReminders = sqliteTable(
  "licence_reminders",
  {
    licenceId: integer("licence_id")
      .notNull()
      .references(() => bookAccess.id, { onDelete: "cascade" }),
    endsOn: text("ends_on").notNull(),
    daysBefore: integer("days_before").notNull(),
    sentAt: integer("sent_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenceId, t.endsOn, t.daysBefore] })],
);

export const teachers = sqliteTable(
  "teachers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schoolId: integer("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Stored lower-cased and trimmed, so the unique index is case-insensitive.
    email: text("email").notNull(),
    mobile: text("mobile").notNull(),
    passwordHash: text("password_hash").notNull(),
    // An admin can disable a teacher: they cannot sign in, and their sessions count as signed out.
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    // The last UTC day the teacher read: "active teachers in the last 30 days" counts on its index.
    lastActiveDay: text("last_active_day"),
    // A school coordinator (docs/decisions/0030): sees the school's usage and manages its teachers.
    coordinator: integer("coordinator", { mode: "boolean" }).notNull().default(false),
    // The Text view's reading settings (docs/decisions/0031), as JSON; null until first saved. Read
    // through readStoredSettings, so a value an older reader wrote still opens.
    readingSettings: text("reading_settings", { mode: "json" }).$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("teachers_school_email_idx").on(t.schoolId, t.email), index("teachers_last_active_idx").on(t.lastActiveDay)],
);

export const admins = sqliteTable("admins", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  role: text("role", { enum: ["admin", "superadmin"] })
    .notNull()
    .default("admin"),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
});

export const otpCodes = sqliteTable(
  "otp_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    schoolId: integer("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    purpose: text("purpose", { enum: ["register", "reset"] }).notNull(),
    // HMAC of the code bound to school, e-mail and purpose; the plain code is never stored.
    codeHash: text("code_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: integer("used_at", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("otp_codes_lookup_idx").on(t.schoolId, t.email, t.purpose, t.createdAt),
    // Sign-ins sweep codes that expired a day ago (loginHousekeeping); the limits look back one hour.
    index("otp_codes_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Admins' sessions. Teachers' sessions live in their school's object (docs/decisions/0024); the
 * teacher rows here are from before it, kept (unread but for the school an old cookie names) until
 * they expire and the sweep takes them.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the cookie token; the token itself only lives in the browser.
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["teacher", "admin"] }).notNull(),
    teacherId: integer("teacher_id").references(() => teachers.id, { onDelete: "cascade" }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "cascade" }),
    schoolId: integer("school_id").references(() => schools.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    /** The browser and system the session was signed in from ("Chrome on Windows"), for the account page. */
    device: text("device"),
  },
  (t) => [
    index("sessions_teacher_idx").on(t.teacherId),
    index("sessions_admin_idx").on(t.adminId),
    index("sessions_school_idx").on(t.schoolId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const loginEvents = sqliteTable(
  "login_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: ["teacher", "admin"] }).notNull(),
    schoolId: integer("school_id").references(() => schools.id, { onDelete: "cascade" }),
    // A deleted teacher's logins still count towards the school's history.
    teacherId: integer("teacher_id").references(() => teachers.id, { onDelete: "set null" }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    at: integer("at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("login_events_school_at_idx").on(t.schoolId, t.at),
    index("login_events_teacher_idx").on(t.teacherId),
    index("login_events_admin_idx").on(t.adminId),
    index("login_events_at_idx").on(t.at),
  ],
);

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    // Kept as text so the entry stays readable after the admin row is gone.
    adminEmail: text("admin_email").notNull(),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
    at: integer("at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_entity_idx").on(t.entityType, t.entityId),
    // The superadmin's filters by who and by what, newest first within a date range.
    index("audit_log_admin_at_idx").on(t.adminEmail, t.at),
    index("audit_log_action_at_idx").on(t.action, t.at),
  ],
);

/** Books a teacher starred ("My books"). */
export const favourites = sqliteTable(
  "favourites",
  {
    teacherId: integer("teacher_id")
      .notNull()
      .references(() => teachers.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teacherId, t.bookId] }), index("favourites_book_idx").on(t.bookId)],
);

export const readingProgress = sqliteTable(
  "reading_progress",
  {
    teacherId: integer("teacher_id")
      .notNull()
      .references(() => teachers.id, { onDelete: "cascade" }),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teacherId, t.bookId] }),
    index("reading_progress_book_idx").on(t.bookId),
    index("reading_progress_teacher_updated_idx").on(t.teacherId, t.updatedAt),
  ],
);

// Fixed-window counters for throttling (login failures, OTP sends, PDF byte budgets).
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull().default(0),
    windowStart: integer("window_start", { mode: "number" }).notNull(),
    blockedUntil: integer("blocked_until", { mode: "number" }),
  },
  (t) => [index("rate_limits_window_idx").on(t.windowStart)],
);

// R2 multipart uploads in flight, so a cancelled or abandoned one can be aborted and swept.
export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["pdf", "cover"] }).notNull(),
    objectKey: text("object_key").notNull(),
    r2UploadId: text("r2_upload_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_book_idx").on(t.bookId), index("uploads_created_idx").on(t.createdAt)],
);

/**
 * One rendering of one PDF into page images and text (docs/decisions/0013). A book reads from the
 * ready set its `page_set_id` names; a new PDF gets a new set, which replaces the old one in a
 * single batch once every page exists, so teachers see the old pages or the new, never a mix.
 */
export const pageSets = sqliteTable(
  "page_sets",
  {
    id: text("id").primaryKey(),
    bookId: integer("book_id")
      .notNull()
      .references(() => books.id, { onDelete: "cascade" }),
    pdfKey: text("pdf_key").notNull(),
    pdfSize: integer("pdf_size").notNull(),
    // Known once a renderer has opened the PDF.
    pageCount: integer("page_count"),
    status: text("status", { enum: ["preparing", "ready"] })
      .notNull()
      .default("preparing"),
    hasOutline: integer("has_outline", { mode: "boolean" }).notNull().default(false),
    // The admin whose upload opened the set: told when it is ready or refused (preparation_notices).
    startedBy: integer("started_by"),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "number" }),
  },
  (t) => [
    index("page_sets_book_idx").on(t.bookId, t.status),
    // The console's list of every book being prepared (workers/page-images/preparation-status.ts).
    index("page_sets_status_idx").on(t.status, t.createdAt),
  ],
);

/**
 * The platform's work on a page set (docs/decisions/0038): one row per Queue message, so the work
 * survives a restart (the local queue is held in memory) and a page that keeps failing is given up
 * after a bounded number of tries. `first = 0` is the plan (open the PDF, count its pages, write the
 * ranges); the others are page ranges. A delivery claims its row by a lease (`leased_until`, moved
 * on after each page); a row still queued whose lease ran out, or never sent on, is sent again.
 */
export const pageJobs = sqliteTable(
  "page_jobs",
  {
    setId: text("set_id")
      .notNull()
      .references(() => pageSets.id, { onDelete: "cascade" }),
    first: integer("first").notNull(),
    last: integer("last").notNull(),
    state: text("state", { enum: ["queued", "done"] })
      .notNull()
      .default("queued"),
    tries: integer("tries").notNull().default(0),
    // The page being rendered on a retried delivery: the one to give up on if it stops the renderer again.
    at: integer("at"),
    blankPages: integer("blank_pages").notNull().default(0),
    sentAt: integer("sent_at", { mode: "number" }).notNull(),
    leasedUntil: integer("leased_until", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.setId, t.first] }), index("page_jobs_queued_idx").on(t.state, t.leasedUntil)],
);

/**
 * What became of a book's preparation, for the admin who uploaded its PDF and for the console: a
 * book ready (with its failed pages) or refused (with the reason). Kept 30 days.
 */
export const preparationNotices = sqliteTable(
  "preparation_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // The book may be gone (a refused add removes it): its title is kept here.
    bookId: integer("book_id"),
    title: text("title").notNull(),
    adminId: integer("admin_id"),
    outcome: text("outcome", { enum: ["ready", "refused"] }).notNull(),
    pageCount: integer("page_count"),
    failedPages: integer("failed_pages").notNull().default(0),
    message: text("message"),
    createdAt: createdAt(),
  },
  (t) => [
    index("preparation_notices_created_idx").on(t.createdAt),
    // A book's latest outcome (the book page's panel).
    index("preparation_notices_book_idx").on(t.bookId, t.id),
  ],
);

/** A page of a set that exists: rendered (error null) or reported as impossible to render (error set). */
export const pageSetPages = sqliteTable(
  "page_set_pages",
  {
    setId: text("set_id")
      .notNull()
      .references(() => pageSets.id, { onDelete: "cascade" }),
    n: integer("n").notNull(),
    // The page's size in PDF points (pdf.js viewport at scale 1).
    width: real("width").notNull(),
    height: real("height").notNull(),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.setId, t.n] })],
);

export type School = typeof schools.$inferSelect;
export type Book = typeof books.$inferSelect;
export type Teacher = typeof teachers.$inferSelect;
export type Admin = typeof admins.$inferSelect;
export type PageSet = typeof pageSets.$inferSelect;

/**
 * A school's sign-in with its Google or Microsoft accounts (docs/decisions/0029): which provider,
 * the e-mail domains allowed (a JSON array of lower-case domains) and, for Microsoft, the tenant.
 */
export const schoolSignIn = sqliteTable(
  "school_sign_in",
  {
    schoolId: integer("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["google", "microsoft"] }).notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    domains: text("domains", { mode: "json" }).$type<string[]>().notNull().default([]),
    tenantId: text("tenant_id"),
    updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.schoolId, t.provider] })],
);

/**
 * A provider sign-in that succeeded (docs/decisions/0029), keyed by its sealed state's id so a
 * state signs in once: the teacher, and the hash of the one-time ticket that opens the session on
 * the host where the teacher began (a school's own subdomain has its own cookies). Taken (deleted)
 * when used; unused ones go after 10 minutes.
 */
export const oidcRequests = sqliteTable(
  "oidc_requests",
  {
    state: text("state").primaryKey(),
    schoolId: integer("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["google", "microsoft"] }).notNull(),
    // Where the teacher began: the origin and the school's base path there.
    returnTo: text("return_to").notNull(),
    handoffHash: text("handoff_hash").unique(),
    teacherId: integer("teacher_id").references(() => teachers.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("oidc_requests_created_idx").on(t.createdAt)],
);

/**
 * A catalogue loaded at once (docs/decisions/0040): the CSV's rows became books together, and
 * their files follow one by one. `first_book_id` is the id the first row's book took: the batch
 * that creates the books gives row i the id first_book_id + i.
 */
export const bookImports = sqliteTable("book_imports", {
  id: text("id").primaryKey(),
  adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
  rowCount: integer("row_count").notNull(),
  firstBookId: integer("first_book_id").notNull(),
  createdAt: createdAt(),
});

/**
 * One row of an import: the book it made and the files it expects. The book id is not a foreign
 * key: a book whose PDF is refused is removed, and its row stays to say so.
 */
export const bookImportRows = sqliteTable(
  "book_import_rows",
  {
    importId: text("import_id")
      .notNull()
      .references(() => bookImports.id, { onDelete: "cascade" }),
    // The row's number in the file as a spreadsheet shows it (the header is row 1).
    row: integer("row").notNull(),
    bookId: integer("book_id").notNull(),
    title: text("title").notNull(),
    pdfFile: text("pdf_file").notNull(),
    coverFile: text("cover_file"),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);
