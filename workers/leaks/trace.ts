/**
 * POST /api/leaks/trace behind the route (docs/decisions/0025-leak-trace.md): the suspect image
 * checked and decoded, every ready page set's thumbnail index read (trace-index.ts: built on first use and kept in
 * R2), the page found and the mark read (trace-core.ts), and the (teacher, day) pairs that may have
 * received the page named from D1.
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { TRACE_TYPES } from "#shared/rules/leak-trace.ts";
import { decodeImage } from "../books/cover-renditions.ts";
import { readImageSize } from "../books/image-size.ts";
import type { Db } from "../db/client.ts";
import { bookAccess, books, pageSetPages, pageSets, schools, teachers } from "../db/schema.ts";
import { readingDaily } from "../db/usage-schema.ts";
import { done, failure, type Outcome } from "../kernel/failure.ts";
import { type MarkSecrets, markCode, markDay, readableMarkKeys } from "../stamp/mark-key.ts";
import { watermarkLines } from "../stamp/watermark.ts";
import { FRAME_WIDTH } from "./frame.ts";
import { blurValid, type Grey, greyFromPixels } from "./grey.ts";
import { type Candidate, type StoredPage, traceImage } from "./trace-core.ts";
import { asGrey, loadPageLuma, setIndex } from "./trace-index.ts";

/** Pixels decoded at most: RGBA plus the decoder's copy plus luma as floats, well inside a Worker's 128 MB. */
export const MAX_TRACE_PIXELS = 10_000_000;

/** The suspect's luma, or why it cannot be traced: invalid for what is not a PNG, JPEG or WebP image (whatever its Content-Type), too large for too many pixels. */
export async function suspectImage(bytes: Uint8Array, type: string): Promise<Outcome<Grey>> {
  if (!(TRACE_TYPES as readonly string[]).includes(type)) {
    return failure("invalid", "Send the image itself as PNG, JPEG or WebP, with its Content-Type (image/png, image/jpeg or image/webp)");
  }
  if (bytes.length === 0) return failure("invalid", "The request has no image: send the image file as the body");
  const size = readImageSize(bytes, type);
  const name = type.slice(6).toUpperCase();
  if (!size) return failure("invalid", `The file is not a readable ${name} image`);
  if (size.components === 4) return failure("invalid", "The JPEG is in CMYK (print) colours: save it in RGB");
  if (size.width * size.height > MAX_TRACE_PIXELS) {
    return failure("too-large", `The image is ${size.width} x ${size.height} pixels: send one of at most 10 megapixels`);
  }
  if (size.width < 32 || size.height < 32) return failure("invalid", "The image is too small to hold a page (at least 32 x 32 pixels)");
  try {
    const { width, height, data } = await decodeImage(bytes, type);
    return done(greyFromPixels(data, width, height, 4));
  } catch {
    return failure("invalid", `The file is not a readable ${name} image`);
  }
}

export interface TraceMatch {
  teacherId: number;
  name: string;
  email: string;
  school: string;
  day: string;
  bookId: number;
  title: string;
  page: number;
  confidence: number;
}

export interface TraceResult {
  matches: TraceMatch[];
  /** For the audit and the console: the page found (null when none), how well it fits, the best score. */
  found: { bookId: number; page: number; fit: number; score: number | null } | null;
}

/** Days back a (teacher, day) is looked for in the reports' rows; today's and yesterday's also from the teachers of schools with the book. */
const RECENT_DAYS = 1;
const MAX_CANDIDATES = 50_000;
/** Candidates whose visible stamp is drawn again to read its share of the mark (trace-core.ts). */
const STAMPED = 2_000;

export async function traceLeak(env: MarkSecrets & { BOOKS: R2Bucket }, db: Db, suspect: Grey, now = Date.now()): Promise<TraceResult> {
  // Every ready set's rendered pages, in one read: the pages a teacher can have received.
  const rows = await db
    .select({ bookId: books.id, setId: pageSets.id, n: pageSetPages.n })
    .from(books)
    .innerJoin(pageSets, and(eq(pageSets.id, books.pageSetId), eq(pageSets.status, "ready")))
    .innerJoin(pageSetPages, and(eq(pageSetPages.setId, pageSets.id), isNull(pageSetPages.error)))
    .where(isNotNull(books.pageSetId));
  const sets = new Map<string, { bookId: number; pages: number[] }>();
  for (const { bookId, setId, n } of rows) {
    const set = sets.get(setId) ?? { bookId, pages: [] };
    set.pages.push(n);
    sets.set(setId, set);
  }
  const stored: StoredPage[] = [];
  for (const [setId, { bookId, pages }] of sets) {
    const entries = await setIndex(
      env.BOOKS,
      bookId,
      setId,
      pages.sort((a, b) => a - b),
    );
    for (const entry of entries) {
      stored.push({
        bookId,
        page: entry.n,
        height: entry.height,
        thumb: asGrey(entry.thumb),
        detail: () => blurValid(asGrey(entry.detail)),
        load: async () =>
          (await loadPageLuma(env.BOOKS, bookId, setId, entry.n))?.data ?? new Uint8Array(FRAME_WIDTH * entry.height).fill(255),
      });
    }
  }
  const keys = await readableMarkKeys(env);
  // Who each candidate is, from the same rows as the candidates: the matches are named from them.
  const people = new Map<number, { name: string; email: string; school: string }>();
  const found = await traceImage(
    suspect,
    stored,
    keys.map((key) => key.layout),
    async (bookId) => {
      const pairs = await candidatePairs(db, bookId, now);
      for (const { teacherId, name, email, school } of pairs) people.set(teacherId, { name, email, school });
      // The stamp is drawn again for the latest STAMPED candidates (by day, not by anything in the
      // image): a tile costs about a millisecond to draw.
      const stamped = new Set(pairs.toSorted((a, b) => b.day.localeCompare(a.day)).slice(0, STAMPED));
      const out: Candidate[] = [];
      for (const pair of pairs) {
        const { teacherId, day } = pair;
        const codes = await Promise.all(keys.map((key) => markCode(key, teacherId, day)));
        out.push({
          teacherId,
          day,
          codes,
          ...(stamped.has(pair) ? { stamp: watermarkLines(pair.name, pair.email, pair.school, day) } : {}),
        });
      }
      return out;
    },
  );
  if (!found) return { matches: [], found: null };
  const best = found.matches[0];
  // The audit keeps how close the best code came to a name when none was found.
  const summary = {
    bookId: found.page.bookId,
    page: found.page.page,
    fit: round(found.fit, 3),
    score: Number.isFinite(found.best) ? round(found.best, 2) : null,
    needed: round(found.needed, 2),
  };
  // A code scoring far below the best is a coincidence of the best one's pattern, never a second reader.
  const shown = found.matches.filter((m) => m.score >= 0.5 * (best?.score ?? 0));
  if (!shown.length) return { matches: [], found: summary };
  const [book] = await db.select({ title: books.title }).from(books).where(eq(books.id, found.page.bookId));
  const matches: TraceMatch[] = [];
  for (const m of shown) {
    const person = people.get(m.candidate.teacherId);
    if (!person) continue;
    matches.push({
      teacherId: m.candidate.teacherId,
      name: person.name,
      email: person.email,
      school: person.school,
      day: m.candidate.day,
      bookId: found.page.bookId,
      title: book?.title ?? "",
      page: found.page.page,
      confidence: round(m.confidence, 6),
    });
  }
  return { matches, found: summary };
}

/**
 * The (teacher, day) pairs that may have received a page of the book: every day a teacher read it
 * (the reports' rows), and today and yesterday for every teacher of a school that has it (usage not
 * yet flushed from the school's object).
 */
async function candidatePairs(db: Db, bookId: number, now: number): Promise<CandidatePair[]> {
  // The names as they are now: a teacher renamed since gets a stamp that does not fit, and is
  // traced by the page's ink alone.
  const person = { teacherId: teachers.id, name: teachers.name, email: teachers.email, school: schools.name };
  const read = await db
    .selectDistinct({ ...person, day: readingDaily.day })
    .from(readingDaily)
    .innerJoin(teachers, eq(teachers.id, readingDaily.teacherId))
    .innerJoin(schools, eq(schools.id, teachers.schoolId))
    // An erased teacher (docs/decisions/0045) is no one the trace can name.
    .where(and(eq(readingDaily.bookId, bookId), isNull(teachers.erasedAt)))
    .limit(MAX_CANDIDATES);
  const recent = await db
    .select(person)
    .from(teachers)
    .innerJoin(schools, eq(schools.id, teachers.schoolId))
    .innerJoin(bookAccess, eq(bookAccess.schoolId, teachers.schoolId))
    .where(and(eq(bookAccess.bookId, bookId), isNull(teachers.erasedAt)))
    .limit(MAX_CANDIDATES);
  const days = Array.from({ length: RECENT_DAYS + 1 }, (_, i) => markDay(now - i * 86_400_000));
  const seen = new Set<string>();
  const out: CandidatePair[] = [];
  const add = (pair: CandidatePair) => {
    const key = `${pair.teacherId}:${pair.day}`;
    if (seen.has(key) || out.length >= MAX_CANDIDATES) return;
    seen.add(key);
    out.push(pair);
  };
  for (const pair of read) add(pair);
  for (const teacher of recent) for (const day of days) add({ ...teacher, day });
  return out;
}

interface CandidatePair {
  teacherId: number;
  day: string;
  name: string;
  email: string;
  school: string;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
