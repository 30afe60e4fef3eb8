// The table's rows for reading books as page images: the readers, preparing pages, the readers'
// JS, and what stamping a page costs.
import type { RouteChunks } from "./page-weight.ts";
import type { PagesReport } from "./reader-books.ts";
import type { ThrottledRun } from "./reader-throttled.ts";
import { n, type Row, TARGETS, verdict } from "./report.ts";
import type { StampWall } from "./stamp-wall.ts";

type ReaderMeasure = {
  who: "teacher" | "admin";
  firstPageMs: number | null;
  bytesBeforeFirstPage: number | null;
  byKindBeforeFirstPage: Record<string, number>;
  requestsBeforeFirstPage: number | null;
  error: string | null;
};
export interface ReaderReport {
  date: string;
  missed: string[];
  books: {
    book: string;
    fileBytes: number;
    heavy: boolean;
    pageCount: number | null;
    pages: Omit<PagesReport, "prepareSeconds">;
    teacher: ReaderMeasure;
    admin: ReaderMeasure;
  }[];
  /** On throttled connections, with and without the data saver (issue 45); absent in older results. */
  throttled?: ThrottledRun[];
}

const kB = (bytes: number) => `${n(bytes / 1000)} kB`;
const describe = (m: ReaderMeasure) => {
  if (m.error || m.firstPageMs === null || m.bytesBeforeFirstPage === null) return `error: ${m.error ?? "no first page"}`;
  const kinds = Object.entries(m.byKindBeforeFirstPage)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, bytes]) => `${kind} ${n(bytes / 1000)}`)
    .join(", ");
  return `first page ${m.firstPageMs} ms, ${kB(m.bytesBeforeFirstPage)} before it (${kinds}; ${m.requestsBeforeFirstPage} requests)`;
};

export function readerRows(reader: ReaderReport | null, exitCode: number): Row[] {
  if (!reader)
    return [
      {
        section: "reader",
        item: "bench:reader",
        result: `no fresh bench/results/reader.json (exit ${exitCode})`,
        target: "",
        status: "MISSED",
      },
    ];
  return reader.books.flatMap((b): Row[] => {
    const name = `${b.book} (${(b.fileBytes / 1048576).toFixed(1)} MB${b.pageCount ? `, ${b.pageCount} p.` : ""})`;
    const { teacher, admin } = b;
    const ratios =
      teacher.firstPageMs && admin.firstPageMs && teacher.bytesBeforeFirstPage && admin.bytesBeforeFirstPage
        ? `; vs admin: time x${(teacher.firstPageMs / admin.firstPageMs).toFixed(2)}, bytes x${(teacher.bytesBeforeFirstPage / admin.bytesBeforeFirstPage).toFixed(2)}`
        : "";
    const teacherOk =
      !teacher.error &&
      teacher.firstPageMs !== null &&
      teacher.firstPageMs < TARGETS.teacherFirstPageMs &&
      (teacher.bytesBeforeFirstPage ?? Number.POSITIVE_INFINITY) / 1000 < TARGETS.teacherKbBeforeFirstPage;
    // A share of the file says something only when the file outweighs the reader itself.
    const percent = admin.bytesBeforeFirstPage === null ? null : (100 * admin.bytesBeforeFirstPage) / b.fileBytes;
    const share = percent !== null && percent <= 100 ? `, ${percent.toFixed(2)}% of the file` : "";
    return [
      {
        section: "reader",
        item: `${name}: teacher, page images`,
        result: `${describe(teacher)}${ratios}`,
        target: b.heavy ? `< ${TARGETS.teacherFirstPageMs} ms, < ${TARGETS.teacherKbBeforeFirstPage} kB before page 1` : "",
        status: b.heavy ? verdict(teacherOk) : teacher.error ? "n/a" : "info",
      },
      {
        section: "reader",
        item: `${name}: admin, range PDF (pdf.js)`,
        result: `${describe(admin)}${admin.error ? "" : share}`,
        target: "the comparison",
        status: admin.error ? "n/a" : "info",
      },
    ];
  });
}

/** Preparing each reader book's pages: render time per page and what R2 holds per page at each width. */
export function preparationRows(reader: ReaderReport | null): Row[] {
  return (reader?.books ?? []).map((b): Row => {
    const p = b.pages;
    const bytes = Object.entries(p.r2BytesPerPage)
      .map(([width, size]) => `${width} px ${kB(size)}`)
      .join(", ");
    const render =
      p.renderSecondsPerPage === null
        ? "render time unknown (from a page cache no bench run filled)"
        : `render ${n(p.renderSecondsPerPage * 1000)} ms/page (${p.renderedAt === "this run" ? "this run" : `measured ${p.renderedAt?.slice(0, 16)}, now from the page cache`})`;
    const problems = p.failed ? `; ${p.failed} page(s) failed` : "";
    return {
      section: "page preparation",
      item: `${b.book}${b.pageCount ? ` (${b.pageCount} p.)` : ""}`,
      result: p.error ? `not prepared: ${p.error}` : `${render}; R2 per page: ${bytes}${problems}`,
      target: "reported: wall time per page on one of two render threads, both widths, storing included",
      status: b.heavy && p.error ? "MISSED" : "info",
    };
  });
}

/**
 * The readers' chunks from the build: the teacher's (judged: under budget, and no pdf.js even lazily)
 * and the admin's pdf.js reader for comparison.
 */
export function routeChunkRows(routes: (RouteChunks & { budgetKb: number | null; pdfjsAllowed: boolean })[]): Row[] {
  return routes.map((r): Row => {
    const pdfjs = r.pdfjsUpFront.length
      ? `pdf.js UP FRONT (${r.pdfjsUpFront.join(", ")})`
      : r.pdfjsLazy.length
        ? "pdf.js lazy"
        : "no pdf.js";
    const biggest = r.files
      .slice(0, 3)
      .map((f) => `${f.file.replace(/^assets\//, "")} ${f.gzipKb}`)
      .join(", ");
    const ok = (r.budgetKb === null || r.jsKb < r.budgetKb) && (r.pdfjsAllowed || (!r.pdfjsUpFront.length && !r.pdfjsLazy.length));
    const target = r.pdfjsAllowed ? "the comparison" : `${r.budgetKb === null ? "" : `JS < ${r.budgetKb} kB, `}no pdf.js chunk at all`;
    return {
      section: "reader JS (build, gzip)",
      item: `${r.label} [${r.source}]`,
      result: `JS ${r.jsKb} kB up front, lazy ${r.lazyJsKb} kB; ${pdfjs}; biggest: ${biggest}`,
      target,
      status: r.pdfjsAllowed ? "info" : verdict(ok),
    };
  });
}

/**
 * stampPage in Node (bench/lib/stamp-bench.ts) and the teacher-minus-admin wall time in workerd, of
 * pages of the book titled `book.title`; `book.textPage` is the one judged against the text page's target.
 */
export function stampRows(
  node: { item: string; result: string }[] | string,
  wall: StampWall[],
  book: { title: string; textPage: number },
): Row[] {
  const nodeRows: Row[] =
    typeof node === "string"
      ? [{ section: "stamp CPU (Node)", item: "stamp-bench", result: `could not run: ${node}`, target: "", status: "n/a" }]
      : node.map((r): Row => {
          const current = r.item.includes("after:");
          const median = Number(/1024px: CPU median (\d+) ms/.exec(r.result)?.[1] ?? Number.NaN);
          // A page that goes out as WebP has colour: its own target (decision 37).
          const colour = /1024px: [^;]* webp/.test(r.result);
          const limit = colour ? TARGETS.stampColourCpuMs1024 : TARGETS.stampCpuMs1024;
          return {
            section: "stamp CPU (Node)",
            item: r.item,
            result: r.result,
            target: current ? `1024 px median < ${limit} ms CPU (${colour ? "colour page" : "grey page"})` : "the comparison",
            status: current ? verdict(median < limit) : "info",
          };
        });
  // Issue 25: a text page at 1024 px stamps in under 50 ms (median) in workerd. Seen from outside,
  // the teacher's request minus the admin's for the same page bounds it from above (queueing and all).
  const wallRows = wall.map((w): Row => {
    const text = w.n === book.textPage && w.width === 1024;
    // The "text" page of a demo book carries colour figures: out as WebP, it has the colour page's target (decision 37).
    const limit = w.teacher.contentType === "image/webp" ? TARGETS.stampColourCpuMs1024 : TARGETS.stampCpuMs1024;
    return {
      section: "stamp wall (workerd)",
      item: `page ${w.n} of "${book.title}", ${w.width} px: teacher minus admin, ${w.runs} sequential pairs`,
      result:
        `difference median ${w.difference.p50Ms} ms, p95 ${w.difference.p95Ms} ms (teacher p50 ${w.teacher.p50Ms} ms, ` +
        `${kB(w.teacher.bytes)} ${w.teacher.contentType}; admin p50 ${w.admin.p50Ms} ms, ${kB(w.admin.bytes)} ${w.admin.contentType}; ` +
        `x${(w.teacher.p50Ms / w.admin.p50Ms).toFixed(2)})`,
      target: text
        ? `difference median < ${limit} ms (${limit === TARGETS.stampCpuMs1024 ? "grey" : "colour"} page; wall clock, an upper bound of the stamp's CPU)`
        : "wall clock in local workerd, not CPU",
      status: text ? verdict(w.difference.p50Ms < limit) : "info",
    };
  });
  return [...nodeRows, ...wallRows];
}
