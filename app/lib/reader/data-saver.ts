import { useEffect, useState } from "react";
import { PREVIEW_WIDTH } from "#shared/rules/page-format.ts";
import type { DataSaverChoice } from "#shared/rules/reading-settings.ts";
import type { ReceivedSizes } from "./page-store.ts";

/**
 * The reader's data saver (docs/decisions/0048): on a slow or metered connection the page view
 * asks for PREVIEW_WIDTH (640 px) pages stamped with fewer bytes (`saver=1`), counted as read, and
 * prefetches the next pages. The teacher's choice in the reading settings wins; on "auto" the
 * browser decides: Save-Data, or the Network Information API's effective type of 3G or slower.
 */

/** The width of a data saver page. */
export const SAVER_WIDTH = PREVIEW_WIDTH;
/** Effective connection types (navigator.connection.effectiveType) slow enough for the saver on "auto". */
export const SLOW_CONNECTIONS: readonly string[] = ["slow-2g", "2g", "3g"];

/** What the browser says of its connection; each is undefined where the browser has no Network Information API (Firefox, Safari). */
export interface ConnectionHints {
  saveData?: boolean;
  effectiveType?: string;
}

type NetworkInformation = EventTarget & ConnectionHints;

function connection(): NetworkInformation | undefined {
  if (typeof navigator === "undefined") return undefined;
  return (navigator as Navigator & { connection?: NetworkInformation }).connection;
}

export function readConnection(): ConnectionHints {
  const info = connection();
  return info ? { saveData: info.saveData, effectiveType: info.effectiveType } : {};
}

/** Whether the data saver is on: the teacher's "on" or "off", else what the browser says. */
export function dataSaverOn(choice: DataSaverChoice, hints: ConnectionHints): boolean {
  if (choice !== "auto") return choice === "on";
  return hints.saveData === true || (hints.effectiveType !== undefined && SLOW_CONNECTIONS.includes(hints.effectiveType));
}

/** The connection hints, followed as the browser's estimate changes (a train into a tunnel). */
export function useConnectionHints(): ConnectionHints {
  // Read at once, not after mounting: the first pages are asked for at the width this decides.
  const [hints, setHints] = useState<ConnectionHints>(readConnection);
  useEffect(() => {
    const info = connection();
    if (!info) return;
    const update = () => setHints(readConnection());
    info.addEventListener("change", update);
    return () => info.removeEventListener("change", update);
  }, []);
  return hints;
}

/** What the reading settings say of the data saver: whether it is on now, and the sizes of the pages received in this visit. */
export function savingText(choice: DataSaverChoice, on: boolean, received: ReceivedSizes): string {
  const kB = (kind: ReceivedSizes["saver"]) => Math.max(1, Math.round(kind.bytes / kind.pages / 1000));
  const { saver, sharp } = received;
  if (!on) {
    const why = choice === "auto" ? "off: your connection is fast and your browser does not ask to save data" : "off";
    return sharp.pages ? `Data saver is ${why}. Pages are about ${kB(sharp)} kB.` : `Data saver is ${why}.`;
  }
  const why = choice === "auto" ? "on: your connection is slow or your browser asks to save data" : "on";
  if (!saver.pages) return `Data saver is ${why}. Pages come 640 pixels wide; zoom in for the sharp page.`;
  const instead = sharp.pages ? ` instead of ${kB(sharp)} kB` : "";
  return `Data saver is ${why}. Pages are about ${kB(saver)} kB${instead}; zoom in for the sharp page.`;
}
