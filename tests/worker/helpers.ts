import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import type { ClientResponse } from "hono/client";
import { hc } from "hono/client";
import { z } from "zod";
import type { Ok } from "#shared/api-answer.ts";
import type { Api } from "../../workers/api/index.ts";
import { getDb } from "../../workers/db/client.ts";
import { bookAccess, books, schools } from "../../workers/db/schema.ts";
import { handle, handleApp } from "./entry.ts";

export const db = () => getDb(env.DB);

/** One request through the whole Worker pipeline, as a browser at `url` would send it. */
export async function request(url: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await handle(new Request(url, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * One request through the whole Worker with the real React Router build: pages, their `.data`
 * answers (loaders), form posts (actions) and the route middlewares, against real D1 and R2.
 */
export async function page(url: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const { cookie, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (cookie) headers.set("Cookie", cookie);
  const target = url.startsWith("http") ? url : `https://lectern.test${url}`;
  if (rest.method && rest.method !== "GET" && !headers.has("Origin")) headers.set("Origin", new URL(target).origin);
  const ctx = createExecutionContext();
  const response = await handleApp(new Request(target, { ...rest, headers, redirect: "manual" }), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * A school's fields as Add School, the API and the CSV import take them: `name` made unique, an
 * address in Springfield, IL.
 */
export function schoolFields(name: string, email: string) {
  const unique = crypto.randomUUID().slice(0, 8);
  return { schoolName: `${name} ${unique}`, address1: "1 Elm Street", city: "Springfield", state: "IL", zipCode: "62701", email };
}

let schoolCounter = 0;

export async function createSchool(overrides: Partial<typeof schools.$inferInsert> = {}) {
  schoolCounter++;
  const [school] = await db()
    .insert(schools)
    .values({
      slug: `test-school-${schoolCounter}-${crypto.randomUUID().slice(0, 8)}`,
      name: `Test School ${schoolCounter}`,
      address1: "1 Main Street",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      email: "office@test.example",
      principal: "Pat Principal",
      teacherLimit: 5,
      ...overrides,
    })
    .returning();
  return school!;
}

export const ORIGIN = "https://lectern.test";

export interface ApiCall {
  method?: string;
  body?: unknown;
  cookie?: string | null;
  /** Defaults to our own origin; null sends no Origin header at all. */
  origin?: string | null;
  ip?: string;
  headers?: Record<string, string>;
  env?: Partial<Cloudflare.Env>;
}

/** A JSON API call through the whole Worker, as our own page would make it. */
export async function api(path: string, call: ApiCall = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : `${ORIGIN}${path}`;
  const headers = new Headers(call.headers);
  if (call.body !== undefined) headers.set("Content-Type", "application/json");
  const request = new Request(url, {
    method: call.method ?? (call.body === undefined ? "GET" : "POST"),
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  return send(request, call);
}

/** A request through the whole Worker as `call` makes it: our own origin (or `origin`; null: none), the cookie, the client's address. */
async function send(request: Request, call: Pick<ApiCall, "origin" | "cookie" | "ip" | "env">): Promise<Response> {
  const headers = new Headers(request.headers);
  const origin = call.origin === undefined ? new URL(request.url).origin : call.origin;
  if (origin) headers.set("Origin", origin);
  if (call.cookie) headers.set("Cookie", call.cookie);
  if (call.ip) headers.set("CF-Connecting-IP", call.ip);
  const ctx = createExecutionContext();
  const response = await handle(new Request(request, { headers }), { ...env, ...call.env }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * The API's typed client (the browser's own, app/lib/api-client.ts) over the whole Worker pipeline:
 * paths, parameters, bodies and answers typed from the routes, so a test reads an answer without
 * a cast and a changed shape fails the type check. The call carries `cookie` and our own origin
 * (or `origin`; null sends none), as `api` does.
 */
export function client(call: Omit<ApiCall, "method" | "body" | "headers"> = {}) {
  return hc<Api>(ORIGIN, { fetch: (input: RequestInfo | URL, init?: RequestInit) => send(new Request(input, init), call) });
}

/** A typed call's successful body; fails the test, saying what came instead, on any other status. */
export async function okBody<R extends ClientResponse<unknown, number, string>>(response: R | Promise<R>): Promise<Ok<R>> {
  const answered = await response;
  const body: unknown = await answered.json();
  if (!answered.ok) throw new Error(`Expected a 2xx answer, got ${answered.status}: ${JSON.stringify(body)}`);
  return body as Ok<R>;
}

const ErrorBody = z.object({ error: z.string() }).loose();

/** An answer whose body is read as JSON: a raw `api` call's or a typed client's (whose json() is typed by its route). */
type JsonAnswer = Pick<Response, "json"> | ClientResponse<unknown, number, string>;

/** A refused answer's `error` sentence (and the rest of its body), checked to be one. */
export async function errorOf(response: JsonAnswer | Promise<JsonAnswer>): Promise<string> {
  return (await errorBody(response)).error;
}

/** A refused answer's body: `{ error, ...extra }`, checked to carry an error sentence. */
export async function errorBody(response: JsonAnswer | Promise<JsonAnswer>): Promise<z.infer<typeof ErrorBody>> {
  return ErrorBody.parse(await (await response).json());
}

/** A JSON answer read by a schema the test states (for answers the typed client does not describe: pages' `.data`, other servers, a route that answers `object`). */
export async function jsonOf<Schema extends z.ZodType>(
  response: JsonAnswer | Promise<JsonAnswer>,
  schema: Schema,
): Promise<z.output<Schema>> {
  return schema.parse(await (await response).json());
}

/** `name=value` of the cookie a response set, ready to send back. */
export function cookieFrom(response: Pick<Response, "headers">): string {
  const header = response.headers.get("Set-Cookie") ?? "";
  return header.split(";")[0] ?? "";
}

/** The code that Development Mode shows instead of e-mailing it. */
export async function devModeCode(response: JsonAnswer): Promise<string> {
  const error = await errorOf(response);
  const code = /\b(\d{6})\b/.exec(error)?.[1];
  if (!code) throw new Error(`No Development Mode code in ${JSON.stringify(error)}`);
  return code;
}

/** A teacher of `school` with a live session; returns the cookie an https request would carry. */
export async function signedInTeacher(school: { id: number; sessionLimit?: number }, name = "Test Teacher") {
  const { openTeacherSession } = await import("../../workers/auth/sessions.ts");
  const { teachers } = await import("../../workers/db/schema.ts");
  const [teacher] = await db()
    .insert(teachers)
    .values({ schoolId: school.id, name, email: `${crypto.randomUUID()}@school.test`, mobile: "5550000000", passwordHash: "x" })
    .returning();
  // The session lives in the school's object, as a sign-in opens it.
  const value = await openTeacherSession(env, { id: school.id, sessionLimit: school.sessionLimit ?? 3 }, teacher!, null);
  return { teacher: teacher!, cookie: `__Host-lectern_teacher=${value}` };
}

/** A book with a cover (and a PDF unless `pdf: false`) in R2, assigned to the given schools. */
export async function createBook(
  values: Partial<typeof books.$inferInsert> & { title: string },
  schoolIds: number[] = [],
  options = { pdf: true },
) {
  const id = crypto.randomUUID();
  const coverKey = `test/${id}/cover`;
  const pdfKey = options.pdf ? `test/${id}/book.pdf` : null;
  await env.BOOKS.put(coverKey, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), { httpMetadata: { contentType: "image/png" } });
  if (pdfKey) await env.BOOKS.put(pdfKey, new TextEncoder().encode("%PDF-1.7 test"), { httpMetadata: { contentType: "application/pdf" } });
  const [book] = await db()
    .insert(books)
    .values({ author1: "Some Author", description: "A description.", coverKey, pdfKey, pdfSize: pdfKey ? 13 : null, ...values })
    .returning();
  if (schoolIds.length)
    await db()
      .insert(bookAccess)
      .values(schoolIds.map((schoolId) => ({ schoolId, bookId: book!.id })));
  return book!;
}

/** An admin (or superadmin) with a live session; returns the row and the https cookie. */
export async function signedInAdmin(role: "admin" | "superadmin" = "admin", password = "admin passphrase 1") {
  const { prepareSession } = await import("../../workers/auth/sessions.ts");
  const { hashPassword } = await import("../../workers/auth/password.ts");
  const { admins } = await import("../../workers/db/schema.ts");
  const [admin] = await db()
    .insert(admins)
    .values({
      email: `${role}-${crypto.randomUUID().slice(0, 8)}@lectern.test`,
      name: `Test ${role}`,
      role,
      passwordHash: await hashPassword(password),
    })
    .returning();
  const session = await prepareSession(db(), { kind: "admin", adminId: admin!.id });
  await session.insert;
  return { admin: admin!, password, cookie: `__Host-lectern_admin=${session.token}` };
}

/** Whether the school has the book (a row in book_access). */
export async function hasAccess(schoolId: number, bookId: number): Promise<boolean> {
  const rows = await db()
    .select()
    .from(bookAccess)
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId)));
  return rows.length === 1;
}

/** The school's Durable Object (sessions, budgets, unflushed usage): docs/decisions/0024. */
export async function schoolStub(schoolId: number) {
  const { schoolObject } = await import("../../workers/school-object/objects.ts");
  return schoolObject(env, schoolId);
}

/** Sends the school's unflushed usage to D1, as the alarm (or a report) would; how many rows went. */
export async function flushUsage(schoolId: number): Promise<number> {
  return (await schoolStub(schoolId)).flush(schoolId);
}

/** Sets what a teacher has spent of a book's page budget in one window ('h' or 'd'), as if read. */
export async function setPagesSpent(
  school: { id: number },
  teacherId: number,
  bookId: number,
  window: "h" | "d",
  count: number,
  windowStart = Date.now(),
) {
  const { runInDurableObject } = await import("cloudflare:test");
  const stub = await schoolStub(school.id);
  // The object learns its school on its first call.
  await stub.checkSession(school.id, "none");
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec(
      "INSERT OR REPLACE INTO budgets (teacher_id, book_id, window, count, window_start) VALUES (?, ?, ?, ?, ?)",
      teacherId,
      bookId,
      window,
      count,
      windowStart,
    );
  });
}

/** Every session row the school's object holds (live or ended), as stored. */
export async function objectSessions(schoolId: number) {
  const { runInDurableObject } = await import("cloudflare:test");
  const stub = await schoolStub(schoolId);
  await stub.checkSession(schoolId, "none");
  return runInDurableObject(stub, (_instance, state) =>
    state.storage.sql
      .exec<{ token_hash: string; teacher_id: number; device: string | null; expires_at: number; ended: string | null }>(
        "SELECT token_hash, teacher_id, device, expires_at, ended FROM sessions ORDER BY created_at",
      )
      .toArray(),
  );
}

/** What a teacher has spent of a book's page budget in one window ('h' or 'd'), in the school's object. */
export async function pagesSpent(school: { id: number }, teacherId: number, bookId: number, window: "h" | "d" = "h"): Promise<number> {
  const { runInDurableObject } = await import("cloudflare:test");
  const stub = await schoolStub(school.id);
  await stub.checkSession(school.id, "none");
  return runInDurableObject(stub, (_instance, state) => {
    const [row] = state.storage.sql
      .exec<{ count: number }>("SELECT count FROM budgets WHERE teacher_id = ? AND book_id = ? AND window = ?", teacherId, bookId, window)
      .toArray();
    return row?.count ?? 0;
  });
}

/** The licence of a school for a book (book_access), if there is one. */
export async function licenceOf(schoolId: number, bookId: number) {
  const { and, eq } = await import("drizzle-orm");
  const { bookAccess } = await import("../../workers/db/schema.ts");
  const [row] = await db()
    .select()
    .from(bookAccess)
    .where(and(eq(bookAccess.schoolId, schoolId), eq(bookAccess.bookId, bookId)));
  return row;
}
