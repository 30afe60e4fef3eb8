// A PDF uploaded through the API, as a publisher's script does, gets its pages from the platform
// (issue 42: the renderer Worker on the page-jobs queue) with no browser open, while teachers read;
// no teacher's request fails meanwhile. Before issue 42 it waited for `npm run pages` (issue 23:
// that back-fill once wrote the app's SQLite file from a second process, and teachers got 500s).

import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, inject, it } from "vitest";

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

describe("a PDF uploaded through the API while the app serves teachers", () => {
  it("is prepared by the platform with no browser open; no request fails meanwhile", async () => {
    const { adminEmail, adminPassword, teacherPassword } = inject("demo");
    const admin = await signIn("/api/admin/login", { email: adminEmail, password: adminPassword });
    const slug = "lincoln-academy";
    const teacher = await signIn("/api/teacher/login", { email: `demo.teacher@${slug}.example.org`, password: teacherPassword, slug });

    // A new book with a PDF, uploaded as a script would.
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

    // Teachers read meanwhile: every page image writes the reading budget and the usage rollup.
    const library = (await (await teacher(`/api/schools/slug/${slug}/books`)).json()) as { books: { id: number }[] };
    const reading = library.books[0]!.id;
    const statuses: number[] = [];
    let prepared = false;
    const traffic = Array.from({ length: 3 }, async (_, lane) => {
      // Until the book is ready and at least 21 requests were answered (on a loaded machine
      // preparing 24 pages may take less time than 21 page views).
      for (let i = 0; !(prepared && statuses.length > 20) && i < 2_000; i++) {
        const path = lane === 2 ? `/schools/${slug}/dashboard` : `/api/books/${reading}/pages/${(i % 3) + 1}?w=1024`;
        const response = await teacher(path);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    });
    const readyWithin = Date.now() + 150_000;
    while (!prepared && Date.now() < readyWithin) {
      const answer = (await (await admin(`/api/books/${book.id}/page-sets`)).json()) as { ready: { pageCount: number } | null };
      prepared = answer.ready?.pageCount === 24;
      if (!prepared) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    prepared = true;
    await Promise.all(traffic);

    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const status = (await (await admin(`/api/books/${book.id}/page-sets`)).json()) as {
      ready: { pageCount: number; done: number[] } | null;
      preparing: unknown;
    };
    expect(status.preparing).toBeNull();
    expect(status.ready).toMatchObject({ pageCount: 24 });
    expect(status.ready!.done).toHaveLength(24);
    // And nothing of it is left for `npm run pages` to back-fill.
    const left = (await (await admin("/api/books/awaiting-pages")).json()) as { books: { id: number }[] };
    expect(left.books.map((b) => b.id)).not.toContain(book.id);
  }, 200_000);
});
