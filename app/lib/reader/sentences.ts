/**
 * A paragraph's sentences, for read-aloud to speak one at a time and highlight the one it is
 * reading. Intl.Segmenter knows the language's rules (abbreviations, quotes, other scripts); where a
 * browser has none (Firefox before 125), a plain rule: a sentence ends at . ! ? or … followed by a
 * space. Joined back together the sentences are the paragraph again, so highlighting one keeps
 * every character of the text in place.
 */
export function splitSentences(text: string, locale?: string): string[] {
  if (!text.trim()) return [];
  const pieces = typeof Intl.Segmenter === "function" ? segmented(text, locale) : text.split(/(?<=[.!?…]["'”’)\]]*\s+)/u);
  // A piece of only spaces or punctuation ("…" on its own) is not worth a pause: it joins the one before.
  const sentences: string[] = [];
  for (const piece of pieces) {
    if (sentences.length && !/[\p{L}\p{N}]/u.test(piece)) sentences[sentences.length - 1] += piece;
    else sentences.push(piece);
  }
  return sentences;
}

function segmented(text: string, locale: string | undefined): string[] {
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale || undefined, { granularity: "sentence" });
  } catch {
    // A language tag the browser does not know: its default rules.
    segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" });
  }
  return Array.from(segmenter.segment(text), (part) => part.segment);
}
