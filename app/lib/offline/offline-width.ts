import { chooseImageWidth, IMAGE_WIDTHS } from "../reader/image-width.ts";

/** The page's margin in the reader's list fitted to the width: 2 x PAGE_PADDING + FIT_MARGIN (page-layout.ts). */
const READER_MARGIN = 32;

/**
 * The one image width a kept copy is saved at: the width this device's reader asks for on this
 * screen, fitted to the width (its default), i.e. `chooseImageWidth` of the reader's page box at
 * this screen's pixel ratio. One width only: the other would cost the budget and the bytes of every
 * page again (a 2048 px page is about four times a 1024 px one) for a zoom that, offline, shows the
 * saved image a little soft and, online, fetches the sharp one (local-first.ts).
 */
export function offlineImageWidth(screen: { innerWidth: number; devicePixelRatio: number } = window): number {
  return chooseImageWidth(Math.max(1, screen.innerWidth - READER_MARGIN), screen.devicePixelRatio, IMAGE_WIDTHS);
}
