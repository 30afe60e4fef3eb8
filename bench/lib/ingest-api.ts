/**
 * A publisher's script against a running Lectern, in plain Node: the admin signs in, adds a book,
 * uploads its PDF through the resumable upload API (start, PUT each part, complete, as
 * tests/worker/page-job-fixtures.ts sends it) and watches the platform prepare its pages through
 * `GET /api/books/:id/page-sets`. Used by `npm run bench:ingest` and the fault test
 * (tests/e2e/page-preparation-faults.test.ts). Plain fetch: the typed client drags the Worker's types
 * into the Node type check.
 */

export interface PageProgress {
  id: string;
  status: "preparing" | "ready";
  pageCount: number | null;
  done: number[];
  failed: { n: number; error: string }[];
}

export interface PagesStatus {
  ready: PageProgress | null;
  preparing: PageProgress | null;
  hasPdf: boolean;
}

export class AdminClient {
  private cookie = "";
  readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  /** Signs in (admin or superadmin role) and keeps the session cookie. */
  static async signIn(origin: string, email: string, password: string): Promise<AdminClient> {
    const client = new AdminClient(origin);
    const response = await client.send("POST", "/api/admin/login", { email, password, role: "admin" });
    if (!response.ok) throw new Error(`Signing in as ${email} failed: ${response.status} ${await response.text()}`);
    client.cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    return client;
  }

  /** The session's cookies, as name and value (to hand a browser the same session). */
  cookies(): { name: string; value: string }[] {
    return this.cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) }));
  }

  /** The API refuses writes without our Origin; a script states it. */
  send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const raw = body instanceof Uint8Array;
    return fetch(new URL(path, this.origin), {
      method,
      headers: {
        Origin: new URL(this.origin).origin,
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...(body === undefined ? {} : { "Content-Type": raw ? "application/octet-stream" : "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : raw ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.send(method, path, body);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  async createBook(title: string, author = "Ingest Bench"): Promise<number> {
    const { book } = await this.json<{ book: { id: number } }>("POST", "/api/books", { title, author1: author });
    return book.id;
  }

  async deleteBook(bookId: number): Promise<void> {
    await this.send("DELETE", `/api/books/${bookId}`).then((r) => r.arrayBuffer());
  }

  /** Gives the book to a school (a licence with no end). */
  async assign(bookId: number, schoolId: number): Promise<void> {
    await this.json("POST", "/api/books/access", { schoolIds: [schoolId], bookIds: [bookId] });
  }

  async schoolId(slug: string): Promise<number> {
    const { schools } = await this.json<{ schools: { id: number; slug: string }[] }>(
      "GET",
      `/api/schools?query=${encodeURIComponent(slug)}&pageSize=100`,
    );
    const school = schools.find((s) => s.slug === slug);
    if (!school) throw new Error(`No school ${slug}`);
    return school.id;
  }

  /**
   * Uploads `bytes` as the book's PDF: start, every part (two at a time), complete. Resolves when the
   * completion answered: the moment the upload ends.
   */
  async uploadPdf(bookId: number, bytes: Uint8Array): Promise<{ endedAt: number; parts: number }> {
    const started = await this.json<{ uploadId: string; partSize: number; partCount: number }>("POST", `/api/books/${bookId}/upload/pdf`, {
      size: bytes.length,
    });
    const etags: { partNumber: number; etag: string }[] = [];
    const next = { i: 0 };
    const sendParts = async () => {
      for (let i = next.i++; i < started.partCount; i = next.i++) {
        const part = bytes.subarray(i * started.partSize, (i + 1) * started.partSize);
        const answer = await this.json<{ etag: string }>("PUT", `/api/books/${bookId}/upload/pdf/${started.uploadId}/${i + 1}`, part);
        etags[i] = { partNumber: i + 1, etag: answer.etag };
      }
    };
    await Promise.all([sendParts(), sendParts()]);
    await this.json("POST", `/api/books/${bookId}/upload/pdf/${started.uploadId}/complete`, { parts: etags });
    return { endedAt: Date.now(), parts: started.partCount };
  }

  pagesStatus(bookId: number): Promise<PagesStatus> {
    return this.json<PagesStatus>("GET", `/api/books/${bookId}/page-sets`);
  }
}

export interface IngestTimes {
  /** Seconds from the upload's end. */
  firstPage: number | null;
  firstTen: number | null;
  whole: number | null;
  pageCount: number | null;
  failed: { n: number; error: string }[];
  /** The book was refused (an unopenable PDF), with the reason the page-sets answer gave, if any. */
  refused?: string;
}

/**
 * Polls the book's page sets every `everyMs` from `endedAt` until its pages are the book's (or
 * `timeoutMs` passed), noting when page 1, pages 1 to 10 and every page were first seen stored.
 */
export async function watchPreparation(
  admin: AdminClient,
  bookId: number,
  endedAt: number,
  options: { everyMs?: number; timeoutMs?: number; onProgress?: (status: PagesStatus) => void } = {},
): Promise<IngestTimes> {
  const times: IngestTimes = { firstPage: null, firstTen: null, whole: null, pageCount: null, failed: [] };
  const deadline = endedAt + (options.timeoutMs ?? 15 * 60_000);
  const since = () => (Date.now() - endedAt) / 1000;
  for (;;) {
    let status: PagesStatus;
    try {
      status = await admin.pagesStatus(bookId);
    } catch (error) {
      // A deleted provisional book (its PDF refused) answers 404.
      if (/ 404 /.test(String(error))) return { ...times, refused: String(error) };
      throw error;
    }
    options.onProgress?.(status);
    const progress = status.preparing ?? status.ready;
    if (progress) {
      times.pageCount = progress.pageCount;
      // Page 1 counts once it is readable (stored); pages 1-10 once each is stored or given up.
      const stored = new Set([...progress.done, ...progress.failed.map((f) => f.n)]);
      if (times.firstPage === null && progress.done.includes(1)) times.firstPage = since();
      const ten = Math.min(10, progress.pageCount ?? 10);
      if (times.firstTen === null && progress.pageCount && Array.from({ length: ten }, (_, i) => i + 1).every((n) => stored.has(n)))
        times.firstTen = since();
    }
    if (status.ready && !status.preparing) {
      times.whole = since();
      times.pageCount = status.ready.pageCount;
      times.failed = status.ready.failed;
      if (!times.failed.some((f) => f.n === 1)) times.firstPage ??= times.whole;
      times.firstTen ??= times.whole;
      return times;
    }
    if (!status.preparing && !status.ready)
      return { ...times, firstPage: null, firstTen: null, refused: "no pages and nothing being prepared" };
    if (Date.now() > deadline) return { ...times, failed: progress?.failed ?? [] };
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 250));
  }
}
