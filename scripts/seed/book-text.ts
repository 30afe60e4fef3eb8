/**
 * The demo books' text from the word banks (subject-banks.ts): seeded randomness, paragraphs and
 * titles, and text kept to what the standard PDF fonts can encode.
 */
import { GENERIC, type SubjectBank } from "./subject-banks.ts";

/** Prefixed to some sentences so the small banks read less repetitively. */
const OPENERS = [
  "For example, ",
  "In practice, ",
  "Remember that ",
  "As you read, ",
  "Most of the time, ",
  "Above all, ",
  "In class, ",
  "Later on, ",
];

export function pick<T>(rand: () => number, items: T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

/** Sentences about `topic`; `used` spans a whole page so nothing repeats on it while the banks last. */
export function paragraph(rand: () => number, bank: SubjectBank, topic: string, used: Set<string>): string[] {
  const out: string[] = [];
  const n = 4 + Math.floor(rand() * 5);
  for (let tries = 0; out.length < n && tries < 100; tries++) {
    const base = rand() < 0.7 ? pick(rand, bank.sentences) : pick(rand, GENERIC.sentences);
    if (used.has(base) && used.size < bank.sentences.length + GENERIC.sentences.length) continue;
    used.add(base);
    const s = base.replaceAll("{t}", topic);
    out.push(rand() < 0.2 ? pick(rand, OPENERS) + s[0]!.toLowerCase() + s.slice(1) : s[0]!.toUpperCase() + s.slice(1));
  }
  return out;
}

export function titleCase(text: string): string {
  const small = new Set(["a", "an", "and", "the", "of", "in", "on", "to", "for"]);
  return text.replace(/\S+/g, (w, i: number) => (i > 0 && small.has(w) ? w : w[0]!.toUpperCase() + w.slice(1)));
}

/** FNV-1a: a stable seed from a string, identical in workerd and Node. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: tiny, fast and good enough for picking sentences and shapes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REPLACEMENTS: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u2032": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u2033": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2026": "...",
  "\u2022": "*",
  "\u00ad": "",
};

/**
 * The standard 14 fonts only encode WinAnsi, and pdf-lib throws on anything else. Keeping ASCII
 * and Latin-1 (a subset of WinAnsi) is simplest; accents outside it lose their marks.
 */
export function sanitize(text: string): string {
  let out = "";
  for (const ch of text.replace(/\s+/g, " ")) {
    const mapped = REPLACEMENTS[ch] ?? ch;
    for (const c of mapped.length === 1 && mapped.charCodeAt(0) > 0xff ? mapped.normalize("NFKD") : mapped) {
      const code = c.charCodeAt(0);
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += c;
    }
  }
  return out.trim();
}
