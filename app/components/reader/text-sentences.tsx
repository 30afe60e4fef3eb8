import { matchRanges, normaliseQuery } from "#shared/text-match.ts";
import { splitHighlights } from "../../lib/reader/highlight.ts";

/** A paragraph's text; while read-aloud reads it, as its sentences with the one being read marked. */
export function Sentences(props: {
  sentences: string[];
  text: string;
  reading: number | null;
  query: string;
  readingClass: string;
  matchClass: string;
}) {
  const { sentences, text, reading, query, readingClass, matchClass } = props;
  if (reading === null) return <Marked text={text} query={query} className={matchClass} />;
  return sentences.map((sentence, i) =>
    i === reading ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the sentences of one paragraph never move
      <span key={i} data-reading-sentence className={`rounded-sm box-decoration-clone ${readingClass}`}>
        <Marked text={sentence} query={query} className={matchClass} />
      </span>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      <Marked key={i} text={sentence} query={query} className={matchClass} />
    ),
  );
}

/** A paragraph with the search's matches in <mark>, found as the search finds them. */
function Marked({ text, query, className }: { text: string; query: string; className: string }) {
  const needle = normaliseQuery(query);
  if (!needle) return text;
  return splitHighlights(text, matchRanges(text, needle)).map((part, i) =>
    part.match ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one paragraph never move
      <mark key={i} className={`rounded-sm ${className}`}>
        {part.text}
      </mark>
    ) : (
      part.text
    ),
  );
}
