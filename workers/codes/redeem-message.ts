/**
 * The sentence a successful redemption answers with, one sentence however many books:
 * `Code redeemed: “Counting Creatures” is licensed to your school until Jul 31, 2027, for 30 readers at once.`
 */
import { formatDay } from "#shared/rules/licence.ts";

type Licensed = { title: string; endsOn: string | null; seats: number | null };

const until = (endsOn: string | null) => (endsOn === null ? "with no end date" : `until ${formatDay(endsOn)}`);
const readers = (seats: number | null) =>
  seats === null ? "for any number of readers" : `for ${seats.toLocaleString("en-US")} ${seats === 1 ? "reader" : "readers"} at once`;
const terms = (book: Licensed) => `${until(book.endsOn)}, ${readers(book.seats)}`;

/** "“A”", "“A” and “B”", "“A”, “B” and “C”". */
function titles(books: Licensed[]): string {
  const quoted = books.map((book) => `“${book.title}”`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/**
 * `school` is how the reader of the sentence names the school: "your school" for its coordinator,
 * its name for an admin. Books whose licences now end differently (one extended, one new) are
 * each named with their own terms.
 */
export function redeemedMessage(books: Licensed[], school: string): string {
  const same = books.every((book) => terms(book) === terms(books[0]!));
  if (same) return `Code redeemed: ${titles(books)} ${books.length === 1 ? "is" : "are"} licensed to ${school} ${terms(books[0]!)}.`;
  const [first, ...rest] = books;
  const others = rest.map((book) => `“${book.title}” ${terms(book)}`).join("; ");
  return `Code redeemed: “${first!.title}” is licensed to ${school} ${terms(first!)}; ${others}.`;
}
