import { SAVER_WIDTH } from "./data-saver.ts";

/** The image widths the server prepares for every page. */
export const IMAGE_WIDTHS = [1024, 2048] as const;

/**
 * Which prepared width to ask for: the smallest that is not stretched by more than half, i.e. the
 * 2048 px image once the page is shown wider than about 1.5 x 1024 device pixels (zoomed from
 * about 150 %), else the 1024 px one.
 */
export function chooseImageWidth(displayWidth: number, devicePixelRatio: number, widths: readonly number[] = IMAGE_WIDTHS): number {
  const sorted = [...widths].sort((a, b) => a - b);
  const needed = displayWidth * (devicePixelRatio || 1);
  return sorted.find((width) => needed <= width * 1.5) ?? sorted[sorted.length - 1] ?? 1024;
}

/**
 * With the data saver on, the data saver's page (SAVER_WIDTH) instead of `sharp`, the width the
 * screen needs; a teacher who zoomed in past the page's width asked to see it closer: the sharp one.
 */
export function saverImageWidth(sharp: number, saver: boolean, zoomedIn: boolean): number {
  return saver && !zoomedIn ? SAVER_WIDTH : sharp;
}
