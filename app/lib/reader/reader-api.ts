import type { OutlineItem } from "../../../workers/page-images/page-content.ts";
import type { Client, Ok } from "../api-client.ts";
import { errorText } from "../error-text.ts";
import { forgetOfflineShell } from "../offline/app-shell.ts";

// The answers' types come from the server's routes (workers/api/book-pages.ts); only types are
// imported, so the reader's bundle does not carry the typed client itself. The outline is recursive,
// deeper than the client's JSON typing follows, so it is the server's own type.
type BookRoutes = Client["api"]["books"][":id"];
type Answer<Call extends (...args: never[]) => Promise<unknown>> = Ok<Awaited<ReturnType<Call>>>;

export type PageList = Answer<BookRoutes["pages"]["$get"]>;
export type PageInfo = PageList["pages"][number];
export type PageText = Answer<BookRoutes["pages"][":n"]["text"]["$get"]>;
export type SearchAnswer = Answer<BookRoutes["search"]["$get"]>;
export type SearchResult = SearchAnswer["results"][number];

/**
 * What the reader says to a teacher whose session ended while reading (signed out, removed); a
 * teacher an admin disabled is told so in the server's words instead.
 */
export const SIGNED_OUT = "You have been signed out. Please sign in again.";

/** An answer that was not OK, with the server's `error` text and, for 409, whether the pages are still being prepared. */
export class ReaderApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly preparing = false,
    /** 409 with `status: "no-seat"`: every seat of the school's licence is taken (docs/decisions/0028). */
    readonly noSeat = false,
    /** The server's Retry-After, in seconds (a 503 says 3, 5 or 10; 409 "preparing" says 5); null without one. */
    readonly retryAfterSeconds: number | null = null,
    /** The answer's JSON body (a 409 `edited-elsewhere` carries the annotation as kept, docs/decisions/0051). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "ReaderApiError";
  }
  /** The teacher's reading limit for this book is reached (429): asking again only fails again. */
  get limited() {
    return this.status === 429;
  }
  /** A part of the platform is away for a moment (503, docs/decisions/0047): asking again soon may work. */
  get unavailable() {
    return this.status === 503;
  }
  /** The session is gone (401): nothing more can be read until the teacher signs in again. */
  get signedOut() {
    return this.status === 401;
  }
}

export const bookApi = (bookId: number) => `/api/books/${bookId}`;

async function failure(response: Response, fallback: string): Promise<ReaderApiError> {
  const body = (await response.json().catch(() => null)) as { error?: unknown; status?: unknown; disabled?: unknown } | null;
  const said = errorText(body);
  const message = response.status === 401 ? (body?.disabled === true && said) || SIGNED_OUT : (said ?? fallback);
  // The session is gone: the pages kept for offline were this session's (docs/decisions/0049).
  if (response.status === 401) void forgetOfflineShell();
  return new ReaderApiError(
    message,
    response.status,
    response.status === 409 && (body?.status === "preparing" || body?.status === "page-preparing"),
    response.status === 409 && body?.status === "no-seat",
    retryAfterOf(response),
    body,
  );
}

function retryAfterOf(response: Response): number | null {
  const seconds = Number(response.headers.get("Retry-After") ?? Number.NaN);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) : null;
}

/**
 * A request to the API (our own origin) that fails as a ReaderApiError with the server's words, or
 * `fallback` when it sent none; a dropped connection is status 0, a cancelled one rethrows the abort.
 */
export async function request(path: string, fallback: string, init: RequestInit = {}, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ReaderApiError("Network error: check your connection and try again.", 0);
  }
  if (!response.ok) throw await failure(response, fallback);
  return response;
}

const get = (path: string, fallback: string, signal?: AbortSignal) => request(path, fallback, {}, signal);

async function getJson<T>(path: string, fallback: string, signal?: AbortSignal): Promise<T> {
  return (await (await get(path, fallback, signal)).json()) as T;
}

export const fetchPageList = (bookId: number, signal?: AbortSignal) =>
  getJson<PageList>(`${bookApi(bookId)}/pages`, "Failed to load the book's pages", signal);

export const fetchPageText = (bookId: number, n: number) =>
  getJson<PageText>(`${bookApi(bookId)}/pages/${n}/text`, "Failed to load the page's text");

export const fetchOutline = (bookId: number, signal?: AbortSignal) =>
  getJson<{ outline: OutlineItem[] }>(`${bookApi(bookId)}/outline`, "Failed to load the contents", signal);

export const searchBook = (bookId: number, query: string, signal?: AbortSignal) =>
  getJson<SearchAnswer>(`${bookApi(bookId)}/search?q=${encodeURIComponent(query)}`, "Search failed. Please try again.", signal);

/**
 * Gives back the teacher's seat of the book (they closed the reader); sent with `keepalive`, so it
 * goes out as the page unloads. Failures are nobody's business: the seat frees itself 10 minutes
 * after the last page anyway.
 */
export function releaseSeat(bookId: number): void {
  fetch(`${bookApi(bookId)}/seat`, { method: "DELETE", credentials: "same-origin", keepalive: true }).catch(() => {});
}

/** Where page `n`'s watermarked image at a prepared width is; `saver`: the data saver's page (docs/decisions/0048). */
export const pageImageUrl = (bookId: number, n: number, width: number, saver = false) =>
  `${bookApi(bookId)}/pages/${n}?w=${width}${saver ? "&saver=1" : ""}`;

/** One page's watermarked image at a prepared width (or the data saver's), as a Blob. */
export async function fetchPageImage(bookId: number, n: number, width: number, saver = false): Promise<Blob> {
  return (await get(pageImageUrl(bookId, n, width, saver), "Failed to load the page")).blob();
}

// ---- A teacher's annotations (docs/decisions/0032) --------------------------------------------

type AnnotationRoutes = BookRoutes["annotations"];
export type AnnotationList = Answer<AnnotationRoutes["$get"]>;
export type Annotation = AnnotationList["annotations"][number];
/** A change's answer: the annotation without a highlight's words (the client keeps the ones it has). */
export type ChangedAnnotation = Answer<AnnotationRoutes[":annotationId"]["$patch"]>["annotation"];
export type NewAnnotation =
  | { kind: "bookmark"; page: number; label?: string }
  | { kind: "note"; page: number; note: string }
  | {
      kind: "highlight";
      page: number;
      colour: "yellow" | "green" | "blue" | "pink";
      start: { run: number; offset: number };
      end: { run: number; offset: number };
      note?: string;
    };
export type AnnotationPatch = { label?: string | null; note?: string | null; colour?: "yellow" | "green" | "blue" | "pink" };

/** A write with a JSON body (our own origin: the browser sends it), failing as the reads do. */
const send = (method: "POST" | "PATCH" | "DELETE", path: string, fallback: string, body?: unknown) =>
  request(path, fallback, {
    method,
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

export const annotationsUrl = (bookId: number) => `${bookApi(bookId)}/annotations`;
export const annotationsExportUrl = (bookId: number) => `${annotationsUrl(bookId)}/export`;

export const fetchAnnotations = (bookId: number, signal?: AbortSignal) =>
  getJson<AnnotationList>(annotationsUrl(bookId), "Your notes could not be loaded.", signal);

export async function createAnnotation(bookId: number, annotation: NewAnnotation & { clientId?: string }): Promise<Annotation> {
  const response = await send("POST", annotationsUrl(bookId), "It could not be saved. Please try again.", annotation);
  return ((await response.json()) as { annotation: Annotation }).annotation;
}

export async function updateAnnotation(
  bookId: number,
  id: number,
  patch: AnnotationPatch & { editedAt?: number },
): Promise<ChangedAnnotation> {
  const response = await send("PATCH", `${annotationsUrl(bookId)}/${id}`, "The change could not be saved. Please try again.", patch);
  return ((await response.json()) as { annotation: ChangedAnnotation }).annotation;
}

export async function deleteAnnotation(bookId: number, id: number, editedAt?: number): Promise<void> {
  const at = editedAt === undefined ? "" : `?editedAt=${editedAt}`;
  await send("DELETE", `${annotationsUrl(bookId)}/${id}${at}`, "It could not be deleted. Please try again.");
}
