import { describe, expect, it } from "vitest";
import { benchPages } from "../../bench/lib/trace-pages.ts";
import { apply, type Transform } from "../../workers/leaks/frame.ts";
import { blurValid, type Grey, greyFromPixels } from "../../workers/leaks/grey.ts";
import { confidence, FALSE_ALARM, scoreNeeded } from "../../workers/leaks/mark-reading.ts";
import { leaveOutSurround, pageBox } from "../../workers/leaks/page-box.ts";
import { pageDetail, thumbnailOf } from "../../workers/leaks/thumbnails.ts";
import { type Candidate, type StoredPage, traceImage } from "../../workers/leaks/trace-core.ts";
import { blockSigns, createLayout, embedMark } from "../../workers/stamp/mark.ts";
import { codeScore, flatInk, joinSoft, readMark, readStampMark, toneCurve } from "../../workers/stamp/read-mark.ts";
import { stampPrediction, watermarkPixels } from "../../workers/stamp/watermark.ts";

// The hidden mark and the trace's core (docs/decisions/0025), on generated print-like pages and
// attacks done here in plain code; the Worker's whole path is tests/worker/leak-trace.test.ts, the
// real attacks (sharp, Chromium) and the rates are npm run bench:trace.

const WIDTH = 1024;
const HEIGHT = 1325;

/** Lines of anti-aliased 'words' (each a ramp of greys, as letters' edges are), different per seed. */
function printLikePage(seed: number): Uint8Array {
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3).fill(255);
  let state = seed;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  for (let y = 80; y < HEIGHT - 100; y += 22) {
    if (random() < 0.15) continue;
    let x = 90;
    const end = WIDTH - 90 - random() * (random() < 0.2 ? 500 : 40);
    while (x < end) {
      const word = 12 + random() * 70;
      for (let yy = y; yy < y + 12; yy++) {
        for (let xx = Math.floor(x); xx < Math.min(end, x + word); xx++) {
          const luma = Math.min(255, Math.round(Math.abs((((xx - x) / 7) % 1) - 0.5) * 600));
          rgb.fill(luma, (yy * WIDTH + xx) * 3, (yy * WIDTH + xx) * 3 + 3);
        }
      }
      x += word + 8;
    }
  }
  return rgb;
}

const layout = createLayout(new Uint8Array(32).map((_, i) => i * 7 + 3));
const codeOf = (teacher: number) => new Uint8Array(32).map((_, i) => (teacher * 131 + i * 97) % 256);
const candidates: Candidate[] = Array.from({ length: 30 }, (_, i) => ({ teacherId: i + 1, day: "2026-11-24", codes: [codeOf(i + 1)] }));

const originals = [11, 22, 33].map((seed) => printLikePage(seed));
const lumaOf = (rgb: Uint8Array) => greyFromPixels(rgb, WIDTH, HEIGHT, 3);
const pages: StoredPage[] = originals.map((rgb, i) => {
  const grey = lumaOf(rgb);
  const luma = Uint8Array.from(grey.data, (v) => Math.round(v));
  const detail = pageDetail(grey);
  return { bookId: 1, page: i + 1, height: HEIGHT, thumb: thumbnailOf(detail), detail: () => blurValid(detail), load: async () => luma };
});

function marked(page: number, teacher: number): Grey {
  const rgb = (originals[page - 1] as Uint8Array).slice();
  embedMark(rgb, WIDTH, HEIGHT, 3, blockSigns(layout, codeOf(teacher)));
  return lumaOf(rgb);
}

/** The image under a similarity transform of its frame (out-of-image white), `width` x `height` px. */
function transformed(image: Grey, t: Transform, width: number, height: number): Grey {
  const data = new Float32Array(width * height).fill(255);
  // Inverse-map each output pixel into the source.
  const cos = Math.cos(-t.theta) / t.s;
  const sin = Math.sin(-t.theta) / t.s;
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const du = u + 0.5 - t.tx;
      const dv = v + 0.5 - t.ty;
      const x = Math.floor(cos * du - sin * dv);
      const y = Math.floor(sin * du + cos * dv);
      if (x >= 0 && y >= 0 && x < image.width && y < image.height) data[v * width + u] = image.data[y * image.width + x] as number;
    }
  }
  return { width, height, data };
}

const threshold = (image: Grey, level: number): Grey => ({ ...image, data: image.data.map((v) => (v > level ? 255 : 0)) });

async function traced(image: Grey) {
  // traceImage leaves the surround out of the image in place: the tests use their images again.
  return traceImage({ ...image, data: image.data.slice() }, pages, [layout], async () => candidates);
}

describe("the hidden mark", () => {
  it("names the teacher and the page of an untouched marked page, and no one in the original", async () => {
    const found = await traced(marked(2, 7));
    expect(found?.page.page).toBe(2);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([7]);
    expect(found?.matches[0]?.score).toBeGreaterThan(12);

    const original = await traced(lumaOf(originals[1] as Uint8Array));
    expect(original?.page.page).toBe(2);
    expect(original?.matches).toEqual([]);
  });

  it.each([40, 100, 160, 220])("survives a threshold at %i", async (level) => {
    const found = await traced(threshold(marked(1, 3), level));
    expect(found?.matches[0]?.candidate.teacherId).toBe(3);
    expect(found?.matches.length).toBe(1);
  });

  it("survives a crop to the lower right quarter turned by 1.5 degrees and scaled to 70 %", async () => {
    const page = marked(3, 12);
    const quarter: Grey = {
      width: WIDTH / 2,
      height: Math.floor(HEIGHT / 2),
      data: new Float32Array((WIDTH / 2) * Math.floor(HEIGHT / 2)),
    };
    for (let y = 0; y < quarter.height; y++) {
      quarter.data.set(
        page.data.subarray((y + Math.ceil(HEIGHT / 2)) * WIDTH + WIDTH / 2, (y + Math.ceil(HEIGHT / 2)) * WIDTH + WIDTH),
        y * quarter.width,
      );
    }
    const theta = (1.5 * Math.PI) / 180;
    const s = 0.7;
    // Turned about its corner with the canvas grown to fit, as image editors do.
    const { width: w, height: h } = quarter;
    const [sin, cos] = [Math.sin(theta), Math.cos(theta)];
    const turned = transformed(
      quarter,
      { s, theta, tx: s * h * sin, ty: 0 },
      Math.ceil(s * (w * cos + h * sin)),
      Math.ceil(s * (w * sin + h * cos)),
    );
    const found = await traced(turned);
    expect(found?.page.page).toBe(3);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([12]);
    expect(found?.transform.theta).toBeCloseTo(theta, 2);
  });

  /** A 1280 x 800 screenshot of the reader: the page 1248 px wide at (16, 64) on a dark surround, `scrolled` frame px down. */
  function screenshot(page: Grey, scrolled = 0): Grey {
    const shot: Grey = { width: 1280, height: 800, data: new Float32Array(1280 * 800).fill(22) };
    const t: Transform = { s: 1.21875, theta: 0, tx: 16, ty: 64 - 1.21875 * scrolled };
    const shown = transformed(page, t, 1280, 800);
    const top = Math.max(64, Math.ceil(t.ty));
    for (let v = top; v < 800; v++) for (let u = 16; u < 1264; u++) shot.data[v * 1280 + u] = shown.data[v * 1280 + u] as number;
    return shot;
  }

  function quarterOf(image: Grey, right: boolean, bottom: boolean): Grey {
    const w = image.width / 2;
    const h = image.height / 2;
    const out: Grey = { width: w, height: h, data: new Float32Array(w * h) };
    for (let y = 0; y < h; y++) {
      const from = (y + (bottom ? h : 0)) * image.width + (right ? w : 0);
      out.data.set(image.data.subarray(from, from + w), y * w);
    }
    return out;
  }

  it("finds a page shown inside a dark surround (a screenshot of the reader), top of the page at the toolbar", async () => {
    const shot = screenshot(marked(2, 21));
    const box = pageBox(shot);
    expect(box).toMatchObject({ left: { a: 16, b: 0 }, right: { a: 1264, b: 0 }, top: { a: 64, b: 0 }, theta: 0 });
    expect(box?.bottom).toBeUndefined();
    const found = await traced(shot);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([21]);
    const [u, v] = apply(found?.transform as Transform, 0, 0);
    expect(Math.abs(u - 16) + Math.abs(v - 64)).toBeLessThan(3); // the page's corner where the reader shows it

    // Its top right quarter: the page's right and top edges on the surround, its scale unknown.
    const quarter = quarterOf(shot, true, false);
    expect(pageBox(quarter)).toMatchObject({ right: { a: 624 }, top: { a: 64 } });
    const inQuarter = await traced(quarter);
    expect(inQuarter?.matches.map((m) => m.candidate.teacherId)).toEqual([21]);
    expect(inQuarter?.transform.s).toBeCloseTo(1.21875, 1);
  });

  it("finds a screenshot turned by 1.5 degrees on a canvas grown to fit (its corners white): the turn from the page's edges", async () => {
    const shot = screenshot(marked(3, 8));
    const theta = (-1.5 * Math.PI) / 180;
    const [sin, cos] = [Math.abs(Math.sin(theta)), Math.cos(theta)];
    const width = Math.ceil(1280 * cos + 800 * sin);
    const height = Math.ceil(1280 * sin + 800 * cos);
    // Turned about its centre into the grown canvas.
    const [cu, cv] = apply({ s: 1, theta, tx: 0, ty: 0 }, 640, 400);
    const centred = transformed(shot, { s: 1, theta, tx: width / 2 - cu, ty: height / 2 - cv }, width, height);
    const box = pageBox(centred);
    expect(box?.theta).toBeCloseTo(theta, 3);
    const found = await traced(centred);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([8]);
    expect(found?.transform.theta).toBeCloseTo(theta, 2);
  });

  it("leaves a binarised screenshot's black surround out of the comparison", async () => {
    const shot = threshold(screenshot(marked(1, 4)), 120);
    const box = pageBox(shot);
    expect(box?.left?.a).toBeCloseTo(16, 0);
    const masked = leaveOutSurround({ ...shot, data: shot.data.slice() }, box);
    expect(masked.data[10 * 1280 + 600]).toBeNaN(); // the toolbar
    expect(masked.data[400 * 1280 + 600]).not.toBeNaN(); // the page
    const found = await traced(shot);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([4]);
  });

  it("finds a page scrolled under the toolbar: the edge at the toolbar is where the screen cuts it, not the page's top", async () => {
    const shot = screenshot(marked(3, 29), 400);
    expect(pageBox(shot)?.top?.a).toBeCloseTo(64, 0);
    const found = await traced(shot);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([29]);
    const [, v] = apply(found?.transform as Transform, 0, 0);
    expect(Math.abs(v - (64 - 1.21875 * 400))).toBeLessThan(3);
  });

  it("finds a page scrolled past the screenshot's top and bottom along its one visible side edge (a lower quarter)", async () => {
    const shot = screenshot(marked(2, 17), 300);
    const quarter = quarterOf(shot, false, true);
    const box = pageBox(quarter);
    expect(box).toMatchObject({ left: { a: 16, b: 0 } });
    expect(box?.top ?? box?.bottom ?? box?.right).toBeUndefined();
    const found = await traced(quarter);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([17]);
    expect(found?.transform.s).toBeCloseTo(1.21875, 1);
    // The registration keeps what the edge measured: the page's left side stays on it, untilted.
    expect(found?.transform.theta).toBe(0);
    expect(apply(found?.transform as Transform, 0, 300)[0]).toBeCloseTo(16, 0);
  });

  it("tells which page of a generated book a screenshot's lower quarter shows: a few half lines of its text", async () => {
    // The 24 pages of a demo book share one template (paragraphs, a chart, a table): at 32 and 64 px
    // a few lines of one are a grey texture that fits many places of many pages; at 256 px the
    // words tell them apart.
    const book = (await benchPages(2, 24, 0)).filter((p) => p.bookId === 2);
    const bookPages: StoredPage[] = book.map((p) => {
      const detail = pageDetail(greyFromPixels(p.luma, p.width, p.height, 1));
      return {
        bookId: 2,
        page: p.page,
        height: p.height,
        thumb: thumbnailOf(detail),
        detail: () => blurValid(detail),
        load: async () => p.luma,
      };
    });
    const page = book[3] as (typeof book)[number];
    const rgb = new Uint8Array(page.luma.length * 3);
    for (const [i, v] of page.luma.entries()) rgb.fill(v, 3 * i, 3 * i + 3);
    embedMark(rgb, page.width, page.height, 3, blockSigns(layout, codeOf(23)));
    const quarter = quarterOf(screenshot(greyFromPixels(rgb, page.width, page.height, 3)), false, true);
    const found = await traceImage({ ...quarter, data: quarter.data.slice() }, bookPages, [layout], async () => candidates);
    expect(found?.page.page).toBe(4);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([23]);
  }, 60_000);

  it("finds a page of black bands in a screenshot: the page is darker than the surround, and the box is still used", async () => {
    // Black bands with thin white lines between them (rims half grey), as a printed chart or a dark
    // design page: at 64 px a grey blur that places anywhere fit as well as its own.
    const rgb = new Uint8Array(WIDTH * HEIGHT * 3).fill(255);
    for (let y = 0; y < HEIGHT; y++) {
      const phase = (y + 27) % 33;
      rgb.fill(phase < 25 ? 0 : phase === 25 || phase === 32 ? 128 : 255, y * WIDTH * 3, (y + 1) * WIDTH * 3);
    }
    const grey = lumaOf(rgb);
    const luma = Uint8Array.from(grey.data, (v) => Math.round(v));
    const detail = pageDetail(grey);
    const dark: StoredPage = {
      bookId: 2,
      page: 1,
      height: HEIGHT,
      thumb: thumbnailOf(detail),
      detail: () => blurValid(detail),
      load: async () => luma,
    };
    embedMark(rgb, WIDTH, HEIGHT, 3, blockSigns(layout, codeOf(12)));
    const shot = screenshot(lumaOf(rgb));
    const box = pageBox(shot);
    expect(box).toMatchObject({ left: { a: 16 }, right: { a: 1264 }, top: { a: 64 }, doubtful: true });
    const found = await traceImage({ ...shot, data: shot.data.slice() }, [...pages, dark], [layout], async () => candidates);
    expect(found?.page).toBe(dark);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([12]);
    // Two passes read the codes (with the box and without): the bound counts both.
    expect(found?.needed).toBeGreaterThanOrEqual(scoreNeeded(candidates.length * 2));
    const [u, v] = apply(found?.transform as Transform, 0, 0);
    expect(Math.abs(u - 16) + Math.abs(v - 64)).toBeLessThan(3);
  });

  it("scores a code the image does not carry like noise, far below the match threshold", async () => {
    const found = await traced(marked(1, 5));
    const others = candidates.filter((c) => c.teacherId !== 5);
    const pool = await traceImage(marked(1, 5), pages, [layout], async () => others);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([5]);
    expect(pool?.matches).toEqual([]);
  });

  it("names a code only past the score where any of the codes tried could reach it once in a million traces", () => {
    expect(scoreNeeded(40)).toBeCloseTo(5.92, 2);
    expect(scoreNeeded(100_000)).toBeCloseTo(7.12, 2);
    for (const tried of [1, 40, 100_000]) {
      // At the threshold the bound on a false name is FALSE_ALARM (shown capped as 99.9999 %); a
      // point below it, the confidence shown is one minus that bound, more than FALSE_ALARM short.
      const needed = scoreNeeded(tried);
      expect(tried * Math.exp((-needed * needed) / 2)).toBeCloseTo(FALSE_ALARM, 12);
      expect(confidence(needed - 1, tried)).toBeCloseTo(1 - tried * Math.exp(-((needed - 1) ** 2) / 2), 12);
      expect(1 - confidence(needed - 1, tried)).toBeGreaterThan(10 * FALSE_ALARM);
    }
  });

  it("leaves paper white and moves no pixel of a flat field", () => {
    const rgb = new Uint8Array(64 * 64 * 3);
    for (let i = 0; i < rgb.length; i += 3) rgb.set(i < rgb.length / 2 ? [255, 255, 255] : [30, 90, 200], i);
    const before = rgb.slice();
    embedMark(rgb, 64, 64, 3, blockSigns(layout, codeOf(1)));
    // Only the row where white meets blue has activity; everything else is as it was.
    const changedRows = new Set<number>();
    for (let i = 0; i < rgb.length; i++) if (rgb[i] !== before[i]) changedRows.add(Math.floor(i / (64 * 3)));
    expect([...changedRows].every((row) => row === 31 || row === 32)).toBe(true);
  });

  it("carries the mark in the visible stamp's tiles too, read against the teacher's own stamp", () => {
    // A page with one line of words in its top left quarter: too little ink for the page's own
    // share of the mark. The stamp's tiles, which every page carries, leave out dots where the
    // teacher's mark says +1.
    const rgb = new Uint8Array(WIDTH * HEIGHT * 3).fill(255);
    const top = originals[0] as Uint8Array;
    const line = 80 * WIDTH * 3;
    rgb.set(top.subarray(line, line + 14 * WIDTH * 3), line);
    const plain = rgb.slice();
    const linesOf = (teacher: number) => [
      `Teacher ${teacher}`,
      `teacher.${teacher}@school.example.org`,
      "Lincoln High School",
      "Nov 24, 2026",
    ];
    const teacher = 7;
    const signs = blockSigns(layout, codeOf(teacher));
    embedMark(rgb, WIDTH, HEIGHT, 3, signs);
    const unmarked = rgb.slice();
    watermarkPixels(unmarked, WIDTH, HEIGHT, linesOf(teacher), 3);
    watermarkPixels(rgb, WIDTH, HEIGHT, linesOf(teacher), 3, signs);
    // The mark only leaves dots out, and only in blocks whose sign is +1.
    let left = 0;
    for (let i = 0; i < rgb.length; i += 3) {
      if (rgb[i] === unmarked[i]) continue;
      const [x, y] = [(i / 3) % WIDTH, Math.floor(i / 3 / WIDTH)];
      expect(rgb[i]).toBeGreaterThan(unmarked[i] as number);
      expect(signs[Math.floor(y / 16) * 64 + Math.floor(x / 16)]).toBe(1);
      left++;
    }
    expect(left).toBeGreaterThan(1000);

    // The top left quarter, registered exactly: the rest of the page is not seen.
    const original = Uint8Array.from(lumaOf(plain).data, Math.round);
    const suspect = lumaOf(rgb).data;
    for (let y = 0; y < HEIGHT; y++)
      for (let x = 0; x < WIDTH; x++) if (x >= WIDTH / 2 || y >= HEIGHT / 2) suspect[y * WIDTH + x] = Number.NaN;
    const tone = toneCurve(original, suspect);
    const ink = readMark(original, suspect, WIDTH, HEIGHT, layout, tone);
    const flat = flatInk(original, suspect, WIDTH, HEIGHT, tone);
    const seen = (x: number, y: number) => x < WIDTH / 2 && y < HEIGHT / 2;
    const scoreOf = (candidate: number) => {
      const stamp = stampPrediction(original, WIDTH, HEIGHT, linesOf(candidate), seen);
      return codeScore(joinSoft(ink, readStampMark(flat, stamp, layout)), codeOf(candidate));
    };
    const needed = scoreNeeded(candidates.length * 2);
    expect(codeScore(ink, codeOf(teacher))).toBeLessThan(needed);
    expect(scoreOf(teacher)).toBeGreaterThan(needed + 2);
    // Every other teacher, read against their own stamp, scores as noise.
    for (const other of [1, 2, 3, 12, 29]) expect(Math.abs(scoreOf(other))).toBeLessThan(4);
  });
});
