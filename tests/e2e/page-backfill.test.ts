// `npm run pages` while the app serves traffic (issue #23): a PDF uploaded through the API gets its
// pages from the back-fill, which goes through the running app, while teachers read. Before, the
// back-fill wrote the app's SQLite file from a second process: teachers got 500s (SQLITE_BUSY) and
// the back-fill failed with "database is locked".

import { spawn } from "node:child_process";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, inject, it } from "vitest";
import { ROOT, toolEnv } from "../../scripts/lib/env.ts";

const origin = () => inject("baseURL");

/** A signed-in script's requests: its cookie, and the Origin the API wants on writes. */
async function signIn(path: string, body: object): Promise<(path: string, init?: RequestInit) => Promise<Response>> {
  const headers = { Origin: origin(), "Content-Type": "application/json" };
  const login = await fetch(`${origin()}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return (path, init = {}) => fetch(`${origin()}${path}`, { ...init, headers: { Origin: origin(), Cookie: cookie, ...init.headers } });
}

async function bookPdf(pages: number): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([420, 595]);
    page.drawText(`Back-fill chapter ${n}`, { x: 40, y: 540, size: 22, font });
    for (let line = 0; line < 30; line++)
      page.drawText(`Line ${line + 1} of page ${n}: the tide comes in.`, { x: 40, y: 500 - line * 15, size: 11, font });
  }
  return (await pdf.save()) as Uint8Array<ArrayBuffer>;
}

/** `npm run pages -- <bookId> --url <app>`, as the README says to run it after API uploads. */
function runPages(bookId: number): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const { adminEmail, adminPassword } = inject("demo");
    const child = spawn(
      join(ROOT, "node_modules/.bin/node"),
      [join(ROOT, "scripts/pages.ts"), String(bookId), "--url", `http://127.0.0.1:${inject("port")}`],
      { cwd: ROOT, env: toolEnv({ LECTERN_ADMIN_EMAIL: adminEmail, LECTERN_ADMIN_PASSWORD: adminPassword }) },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

describe("npm run pages while the app serves teachers", () => {
  it("prepares an API-uploaded book through the app; no request fails meanwhile", async () => {
    const { adminEmail, adminPassword, teacherPassword } = inject("demo");
    const admin = await signIn("/api/admin/login", { email: adminEmail, password: adminPassword });
    const slug = "lincoln-academy";
    const teacher = await signIn("/api/teacher/login", { email: `demo.teacher@${slug}.example.org`, password: teacherPassword, slug });

    // A new book with a PDF, uploaded as a script would: its pages do not exist yet.
    const created = await admin("/api/books", {
      method: "POST",
      body: JSON.stringify({ title: `Back-fill ${Date.now()}`, author1: "Tide Tables", description: "Uploaded by a script." }),
      headers: { "Content-Type": "application/json" },
    });
    expect(created.status).toBe(201);
    const { book } = (await created.json()) as { book: { id: number } };
    const pdf = await bookPdf(24);
    const json = { "Content-Type": "application/json" };
    const started = (await (
      await admin(`/api/books/${book.id}/upload/pdf`, { method: "POST", headers: json, body: JSON.stringify({ size: pdf.byteLength }) })
    ).json()) as { uploadId: string };
    const part = await admin(`/api/books/${book.id}/upload/pdf/${started.uploadId}/1`, { method: "PUT", body: pdf });
    expect(part.status).toBe(200);
    const completed = await admin(`/api/books/${book.id}/upload/pdf/${started.uploadId}/complete`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ parts: [await part.json()] }),
    });
    expect(completed.status).toBe(200);
    const awaiting = (await (await admin(`/api/books/awaiting-pages?bookId=${book.id}`)).json()) as { books: { id: number }[] };
    expect(awaiting.books.map((b) => b.id)).toEqual([book.id]);

    // Teachers read meanwhile: every page image writes the reading budget and the usage rollup.
    const library = (await (await teacher(`/api/schools/slug/${slug}/books`)).json()) as { books: { id: number }[] };
    const reading = library.books[0]!.id;
    const statuses: number[] = [];
    let backfillDone = false;
    const traffic = Array.from({ length: 3 }, async (_, lane) => {
      for (let i = 0; !backfillDone && i < 2_000; i++) {
        const path = lane === 2 ? `/schools/${slug}/dashboard` : `/api/books/${reading}/pages/${(i % 3) + 1}?w=1024`;
        const response = await teacher(path);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    });
    const run = await runPages(book.id);
    backfillDone = true;
    await Promise.all(traffic);

    expect(run.output).toContain("the pages go through it");
    expect(run.output).toContain("Prepared 1 of 1 books.");
    expect(run.code).toBe(0);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const status = (await (await admin(`/api/books/${book.id}/page-sets`)).json()) as {
      ready: { pageCount: number; done: number[] } | null;
      preparing: unknown;
    };
    expect(status.preparing).toBeNull();
    expect(status.ready).toMatchObject({ pageCount: 24 });
    expect(status.ready!.done).toHaveLength(24);
    // And nothing of it is left for the next run.
    const left = (await (await admin("/api/books/awaiting-pages")).json()) as { books: { id: number }[] };
    expect(left.books.map((b) => b.id)).not.toContain(book.id);
  }, 180_000);
});
