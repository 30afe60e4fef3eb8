/**
 * A bookstore code's format (docs/decisions/0053), the same for the Worker and the browser:
 * `LECT-7K2M-9QXD-4TWA-H8PZ`, the prefix and 16 characters from a 32-symbol alphabet (5 bits each:
 * 80 random bits) in groups of four, to be read aloud over a phone. The alphabet has no 0/O and no
 * 1/I, so a code copied from a card is not misread; typing is forgiving (case, spaces, any dash,
 * invisible characters, full-width forms, and the prefix may be left out).
 */

/** 32 symbols: the digits 2–9 and the letters without I and O. */
export const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const CODE_PREFIX = "LECT";
/** Random characters in a code: 16 × 5 bits = 80 bits. */
export const CODE_LENGTH = 16;
/** The most codes one batch has. */
export const BATCH_MAX_CODES = 10_000;

/** The sentence for what is not a code at all (no lookup is made for it). */
export const CODE_FORMAT_ERROR = "A code looks like LECT-XXXX-XXXX-XXXX-XXXX: four groups of four letters and digits";

/**
 * The 16 characters of what a person typed, upper-cased, without spaces, dashes and the prefix; null
 * when it cannot be a code (a wrong length, or a character outside the alphabet such as 0, O, 1 or I).
 */
export function normalizeCode(typed: string): string | null {
  // NFKC first: full-width letters, digits and dashes (a phone's or an East Asian keyboard's) become
  // plain ones. Then spaces, every kind of dash (and the minus sign) and the invisible format
  // characters a copied code brings along (zero-width space, soft hyphen, direction marks: PDFs and
  // e-mails put them there) are dropped, as the card's own dashes are.
  let compact = typed
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[\s\p{Pd}\u2212\p{Cf}]/gu, "");
  if (compact.length === CODE_PREFIX.length + CODE_LENGTH && compact.startsWith(CODE_PREFIX)) compact = compact.slice(CODE_PREFIX.length);
  if (compact.length !== CODE_LENGTH) return null;
  for (const character of compact) if (!CODE_ALPHABET.includes(character)) return null;
  return compact;
}

/** The 16 characters as printed: `LECT-XXXX-XXXX-XXXX-XXXX`. */
export function formatCode(compact: string): string {
  return [CODE_PREFIX, ...(compact.match(/.{1,4}/g) ?? [])].join("-");
}

/** A code's last four characters, as invoices and the batch page show it ("…4TWA"). */
export function lastFour(compact: string): string {
  return compact.slice(-4);
}
