import { describe, expect, it, vi } from "vitest";
import { splitHighlights } from "../../app/lib/reader/highlight.ts";
import { chooseImageWidth } from "../../app/lib/reader/image-width.ts";
import { createObjectUrlCache } from "../../app/lib/reader/object-url-cache.ts";
import { fitScale, pageAt, pagesBetween, pageTops, zoomStep } from "../../app/lib/reader/page-layout.ts";
import { groupRunsIntoLines, reflowPageText } from "../../app/lib/reader/text-lines.ts";
import type { TextRun } from "../../workers/page-images/page-content.ts";

describe("createObjectUrlCache", () => {
  it("evicts the least recently used URL past its limit and revokes it", () => {
    const revoked: string[] = [];
    const cache = createObjectUrlCache(2, (url) => revoked.push(url));
    cache.put("1", "blob:1");
    cache.put("2", "blob:2");
    cache.acquire("1");
    cache.release("1"); // page 1 is now the most recently used
    cache.put("3", "blob:3");
    expect(revoked).toEqual(["blob:2"]);
    expect([cache.has("1"), cache.has("2"), cache.has("3")]).toEqual([true, false, true]);
  });

  it("never evicts a URL still on screen, and catches up once it is released", () => {
    const revoked: string[] = [];
    const cache = createObjectUrlCache(1, (url) => revoked.push(url));
    cache.put("1", "blob:1");
    expect(cache.acquire("1")).toBe("blob:1");
    cache.put("2", "blob:2");
    cache.acquire("2");
    expect(cache.size).toBe(2);
    expect(revoked).toEqual([]);
    cache.release("1");
    expect(revoked).toEqual(["blob:1"]);
    expect(cache.acquire("1")).toBeUndefined();
    cache.clear();
    expect(revoked).toEqual(["blob:1", "blob:2"]);
    expect(cache.size).toBe(0);
  });

  it("revokes the URL a new one for the same key replaces", () => {
    const revoke = vi.fn();
    const cache = createObjectUrlCache(4, revoke);
    cache.put("1", "blob:a");
    cache.put("1", "blob:b");
    expect(revoke).toHaveBeenCalledWith("blob:a");
    expect(cache.acquire("1")).toBe("blob:b");
  });
});

describe("chooseImageWidth", () => {
  it("asks for 2048 px only once the page is shown wider than about 1.5 x 1024 device pixels", () => {
    expect(chooseImageWidth(800, 1)).toBe(1024);
    expect(chooseImageWidth(1248, 1)).toBe(1024);
    expect(chooseImageWidth(1600, 1)).toBe(2048);
    expect(chooseImageWidth(358, 3)).toBe(1024);
    expect(chooseImageWidth(900, 2)).toBe(2048);
    expect(chooseImageWidth(5000, 2)).toBe(2048);
    expect(chooseImageWidth(800, 0)).toBe(1024);
  });
});

describe("splitHighlights", () => {
  it("marks the matching ranges and keeps the rest as plain text", () => {
    expect(
      splitHighlights("the cell wall of a cell", [
        [4, 8],
        [19, 23],
      ]),
    ).toEqual([
      { text: "the ", match: false },
      { text: "cell", match: true },
      { text: " wall of a ", match: false },
      { text: "cell", match: true },
    ]);
  });

  it("tolerates unsorted, overlapping and out-of-range ranges, and never loses text", () => {
    const parts = splitHighlights("<b>photosynthesis</b>", [
      [10, 99],
      [3, 8],
      [5, 12],
      [-4, 0],
    ]);
    expect(parts.map((p) => p.text).join("")).toBe("<b>photosynthesis</b>");
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(["photosynthesis</b>"]);
    expect(splitHighlights("plain", [])).toEqual([{ text: "plain", match: false }]);
  });
});

const run = (str: string, x: number, y: number, h = 12, w = str.length * h * 0.5): TextRun => ({ str, x, y, w, h });

describe("reflowing a page's text", () => {
  it("puts runs on one line when they share a baseline band, left to right, with word spaces", () => {
    const lines = groupRunsIntoLines([run("world", 100, 101), run("Hello", 40, 100), run("next", 40, 120), run("!", 130, 101, 12, 4)]);
    expect(lines.map((line) => line.text)).toEqual(["Hello world!", "next"]);
  });

  it("splits paragraphs at larger gaps and at a heading, and joins hyphenated words", () => {
    const body = [
      run("Chapter 1", 40, 40, 24),
      run("Plants make their food by photo-", 40, 80),
      run("synthesis in their leaves.", 40, 94),
      run("They need light.", 40, 108),
      run("A second paragraph starts", 40, 140),
      run("after a gap.", 40, 154),
    ];
    expect(reflowPageText(body)).toEqual([
      { text: "Chapter 1", heading: true },
      { text: "Plants make their food by photosynthesis in their leaves. They need light.", heading: false },
      { text: "A second paragraph starts after a gap.", heading: false },
    ]);
    expect(reflowPageText([])).toEqual([]);
    expect(reflowPageText([run("  ", 0, 0)])).toEqual([]);
  });
});

describe("page layout", () => {
  const pages = [
    { width: 612, height: 792 },
    { width: 612, height: 792 },
    { width: 792, height: 612 },
  ];

  it("fits the width or the whole page, within the zoom limits", () => {
    expect(fitScale("width", pages[0]!, { width: 1280, height: 800 }, 1)).toBeCloseTo((1280 - 32) / 612);
    expect(fitScale("page", pages[0]!, { width: 1280, height: 800 }, 1)).toBeCloseTo((800 - 16) / 792);
    expect(fitScale("custom", pages[0]!, { width: 1280, height: 800 }, 9)).toBe(4);
    expect(zoomStep(1, 1)).toBeCloseTo(1.2);
    expect(zoomStep(0.26, -1)).toBe(0.25);
  });

  it("knows every page's top and which page a scroll position is in", () => {
    const tops = pageTops(pages, 1);
    expect(tops).toEqual([8, 8 + 792 + 12, 8 + 2 * (792 + 12)]);
    expect(pageAt(tops, 0)).toBe(1);
    expect(pageAt(tops, 811)).toBe(1);
    expect(pageAt(tops, 812)).toBe(2);
    expect(pageAt(tops, 99_999)).toBe(3);
    expect(pagesBetween(tops, pages, 1, 700, 900)).toEqual([1, 2]);
    expect(pagesBetween(tops, pages, 1, 1700, 5000)).toEqual([3]);
  });

  it("costs a 500-page book only the pages near the viewport", () => {
    const many = Array.from({ length: 500 }, () => pages[0]!);
    const tops = pageTops(many, 1);
    const near = pagesBetween(tops, many, 1, 200_000 - 900, 200_000 + 1800);
    expect(near.length).toBeLessThanOrEqual(5);
    expect(near[0]).toBe(pageAt(tops, 200_000 - 900));
  });
});
