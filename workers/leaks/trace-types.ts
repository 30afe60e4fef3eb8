import type { Transform } from "./frame.ts";
import type { Grey } from "./grey.ts";

/**
 * What the trace (trace-core.ts) takes and answers, apart from its steps, so that the steps
 * (mark-reading.ts, slide-hypotheses.ts) name them without importing the module that runs them.
 */

/** A stored page the suspect may show: its 64 px thumbnail now, its 1024 px luma when asked. */
export interface StoredPage {
  bookId: number;
  page: number;
  /** Height of the 1024 px rendition. */
  height: number;
  /** 64 px wide, blurred (thumbnails.ts, thumbnailOf). */
  thumb: Grey;
  /** 128 px wide, blurred (thumbnails.ts, pageDetail): made when the page is shortlisted. */
  detail(): Grey;
  load(): Promise<Uint8Array>;
}

/** A (teacher, day) that may have received the page, with its code under each key. */
export interface Candidate {
  teacherId: number;
  day: string;
  codes: Uint8Array[];
  /** The lines of the visible stamp the teacher's pages carried that day, when known: its tiles carry the mark too. */
  stamp?: string[];
}

export interface Found {
  page: StoredPage;
  transform: Transform;
  /** Correlation of the registered suspect with the page at 512 px. */
  fit: number;
  matches: Array<{ candidate: Candidate; score: number; confidence: number }>;
  /** The best score of any code tried, named or not, and the score a code needed (scoreNeeded). */
  best: number;
  needed: number;
}
