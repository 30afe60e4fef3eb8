/** What step 2 of the search compares (locate.ts): a stored page's 128 px detail and 64 px thumbnail, and the suspect's under a hypothesis. */
import { type Transform, warpToFrame } from "./frame.ts";
import { blurValid, type Grey, halve, resizeTo } from "./grey.ts";

export const THUMB_WIDTH = 64;

/** Width of a page's detail, the stage between the thumbnail and the registration. */
export const DETAIL_WIDTH = 128;

/** A 1024 px page at 128 px, unblurred: what the trace index keeps of each page (as bytes). */
export function pageDetail(page: Grey): Grey {
  // A 1024 px page halves three times to exactly 128 px: 2 x 2 means, far cheaper than a general resize.
  let small = page;
  while (small.width >= 2 * DETAIL_WIDTH && small.width % 2 === 0) small = halve(small);
  return small.width === DETAIL_WIDTH ? small : resizeTo(small, DETAIL_WIDTH);
}

/** The 64 px thumbnail of a page's detail, slightly blurred so that a degree of turn or a few pixels of shift do not matter. */
export function thumbnailOf(detail: Grey): Grey {
  return blurValid(halve(detail));
}

/** The suspect under a hypothesis, as a thumbnail of the page's size (step 2): compared with toneFit. */
export function suspectThumbnail(levels: Grey[], t: Transform, like: Grey): Grey {
  return blurValid(warpToFrame(levels, t, like.width, like.height));
}

/** The least of a page a suspect must show to be compared with it: a quarter of a screenshot shows a tenth. */
export const MIN_SHARE = 0.06;
