import { describe, expect, it } from "vitest";
import { apply, type Grey, greyFromPixels, pageBox, type Transform, thumbnail } from "../../workers/leaks/locate.ts";
import { blockSigns, createLayout, embedMark } from "../../workers/leaks/mark.ts";
import { type Candidate, MIN_SCORE, type StoredPage, traceImage } from "../../workers/leaks/trace-core.ts";

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
  return { bookId: 1, page: i + 1, height: HEIGHT, thumb: thumbnail(grey), load: async () => luma };
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
  return traceImage(image, pages, [layout], async () => candidates);
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

  it("finds a page shown inside a dark surround (a screenshot of the reader), top of the page at the toolbar", async () => {
    const page = marked(2, 21);
    const shot: Grey = { width: 1280, height: 800, data: new Float32Array(1280 * 800).fill(22) };
    const t: Transform = { s: 1.21875, theta: 0, tx: 16, ty: 64 };
    const shown = transformed(page, t, 1280, 800);
    for (let v = 64; v < 800; v++) for (let u = 16; u < 1264; u++) shot.data[v * 1280 + u] = shown.data[v * 1280 + u] as number;
    expect(pageBox(shot)).toMatchObject({
      left: 16,
      right: 1264,
      top: 64,
      bottom: 800,
      cut: { left: false, right: false, top: false, bottom: true },
    });
    const found = await traced(shot);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([21]);
    const [u, v] = apply(found?.transform as Transform, 0, 0);
    expect(Math.abs(u - 16) + Math.abs(v - 64)).toBeLessThan(3); // the page's corner where the reader shows it

    // Its top right quarter: the page's right and top edges on the surround, its scale unknown.
    const quarter: Grey = { width: 640, height: 400, data: new Float32Array(640 * 400) };
    for (let y = 0; y < 400; y++) quarter.data.set(shot.data.subarray(y * 1280 + 640, y * 1280 + 1280), y * 640);
    expect(pageBox(quarter)?.cut).toEqual({ left: true, right: false, top: false, bottom: true });
    const inQuarter = await traced(quarter);
    expect(inQuarter?.matches.map((m) => m.candidate.teacherId)).toEqual([21]);
    expect(inQuarter?.transform.s).toBeCloseTo(1.21875, 1);
  });

  it("scores a code the image does not carry like noise, far below the match threshold", async () => {
    const found = await traced(marked(1, 5));
    const others = candidates.filter((c) => c.teacherId !== 5);
    const pool = await traceImage(marked(1, 5), pages, [layout], async () => others);
    expect(found?.matches.map((m) => m.candidate.teacherId)).toEqual([5]);
    expect(pool?.matches).toEqual([]);
    expect(MIN_SCORE).toBeGreaterThanOrEqual(7);
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
});
