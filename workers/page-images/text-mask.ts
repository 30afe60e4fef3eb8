import { FONT_DATA } from "../stamp/watermark-font.ts";

/**
 * Lines of text as anti-aliased coverage, for the watermark: outlines of DejaVu Sans Condensed
 * (watermark-font.ts, generated) filled by exact signed-area accumulation (the font-rs method).
 * Pure JS: no wasm, no canvas. No kerning or shaping; a character the font lacks is drawn as its
 * box glyph. Decision 0012, revision 2.
 */

/** A block of text as coverage: only the covered pixels, as (x, y, alpha) triples. */
export interface TextMask {
  width: number;
  height: number;
  xs: Uint16Array;
  ys: Uint16Array;
  alphas: Uint8Array;
}

interface Glyph {
  advance: number;
  /** Each contour as x, y, onCurve triples in font units, y up. */
  contours: Int32Array[];
}

interface Font {
  ascent: number;
  descent: number;
  fallback: Glyph;
  glyphs: Map<number, Glyph>;
}

let font: Font | undefined;

/** Decoded once per isolate, on the first mask drawn (about 40 kB of outlines). */
function loadFont(): Font {
  const bytes = Uint8Array.from(atob(FONT_DATA), (c) => c.charCodeAt(0));
  let p = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[p++] as number;
      value += (byte & 127) * 2 ** shift;
      if (byte < 128) return value;
    }
  };
  const unzigzag = (v: number) => (v & 1 ? -(v + 1) / 2 : v / 2);
  const glyph = (): Glyph => {
    const advance = varint();
    const contours: Int32Array[] = [];
    let [x, y] = [0, 0];
    for (let c = varint(); c > 0; c--) {
      const contour = new Int32Array(3 * varint());
      for (let i = 0; i < contour.length; i += 3) {
        const dx = varint();
        x += unzigzag(dx >>> 1);
        y += unzigzag(varint());
        contour.set([x, y, dx & 1], i);
      }
      contours.push(contour);
    }
    return { advance, contours };
  };
  const ascent = unzigzag(varint());
  const descent = unzigzag(varint());
  const fallback = glyph();
  const glyphs = new Map<number, Glyph>();
  for (let n = varint(), code = 0; n > 0; n--) {
    code += varint();
    glyphs.set(code, glyph());
  }
  return { ascent, descent, fallback, glyphs };
}

/**
 * `lines` drawn at `fontSize` px, the font's ascent-to-descent height (as photon sized its text),
 * one line every 1.35 x fontSize, trimmed to the covered pixels' right and bottom edges.
 */
export function renderText(lines: string[], fontSize: number): TextMask {
  font ??= loadFont();
  const { ascent, descent, fallback, glyphs } = font;
  const scale = fontSize / (ascent - descent);
  const lineHeight = Math.ceil(fontSize * 1.35);
  const laidOut = lines.map((line) => Array.from(line, (ch) => glyphs.get(ch.codePointAt(0) as number) ?? fallback));
  const longest = Math.max(0, ...laidOut.map((line) => line.reduce((sum, glyph) => sum + glyph.advance, 0)));
  const width = Math.min(8192, Math.ceil(longest * scale) + 4);
  const height = lineHeight * lines.length + 4;
  const raster = new Raster(width, height);
  for (const [i, line] of laidOut.entries()) {
    let penX = 2;
    const baseline = 2 + i * lineHeight + ascent * scale;
    for (const glyph of line) {
      for (const contour of glyph.contours) raster.fillContour(contour, penX, baseline, scale);
      penX += glyph.advance * scale;
    }
  }
  return raster.mask();
}

/** Coverage by signed area: each edge adds its area to the cells it crosses; a running sum per row fills the shape. */
class Raster {
  private readonly width: number;
  private readonly height: number;
  private readonly stride: number;
  private readonly area: Float32Array;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.stride = width + 2;
    this.area = new Float32Array(this.stride * height + 2);
  }

  /** One TrueType contour (quadratic; two off-curve points in a row imply an on-curve one between). */
  fillContour(contour: Int32Array, left: number, baseline: number, scale: number) {
    const n = contour.length / 3;
    const px = (i: number) => left + (contour[3 * (i % n)] as number) * scale;
    const py = (i: number) => baseline - (contour[3 * (i % n) + 1] as number) * scale;
    const on = (i: number) => contour[3 * (i % n) + 2] === 1;
    // Start on an on-curve point, or on the midpoint of two off-curve ones.
    const first = Array.from({ length: n }, (_, i) => i).find(on);
    const begin = first ?? 0;
    let [x, y] = first === undefined ? [(px(0) + px(1)) / 2, (py(0) + py(1)) / 2] : [px(first), py(first)];
    for (let k = 1; k <= n; k++) {
      const i = begin + k;
      if (on(i)) {
        this.line(x, y, px(i), py(i));
        [x, y] = [px(i), py(i)];
        continue;
      }
      const [cx, cy] = [px(i), py(i)];
      const [ex, ey] = on(i + 1) ? [px(i + 1), py(i + 1)] : [(cx + px(i + 1)) / 2, (cy + py(i + 1)) / 2];
      if (on(i + 1)) k++;
      this.quad(x, y, cx, cy, ex, ey);
      [x, y] = [ex, ey];
    }
  }

  private quad(x0: number, y0: number, cx: number, cy: number, x1: number, y1: number) {
    // Segments enough that the chord is within ~0.1 px of the curve.
    const deviation = Math.hypot(x0 - 2 * cx + x1, y0 - 2 * cy + y1);
    const steps = Math.max(1, Math.ceil(Math.sqrt(deviation / 0.4)));
    let [x, y] = [x0, y0];
    for (let s = 1; s <= steps; s++) {
      const t = s / steps;
      const u = 1 - t;
      const nx = u * u * x0 + 2 * u * t * cx + t * t * x1;
      const ny = u * u * y0 + 2 * u * t * cy + t * t * y1;
      this.line(x, y, nx, ny);
      [x, y] = [nx, ny];
    }
  }

  private line(ax: number, ay: number, bx: number, by: number) {
    if (ay === by) return;
    const [dir, x0, y0, x1, y1] = ay < by ? [1, ax, ay, bx, by] : [-1, bx, by, ax, ay];
    const { area, stride, height } = this;
    const dxdy = (x1 - x0) / (y1 - y0);
    let x = y0 < 0 ? x0 - y0 * dxdy : x0;
    for (let row = Math.max(0, Math.floor(y0)); row < Math.min(height, Math.ceil(y1)); row++) {
      const dy = Math.min(row + 1, y1) - Math.max(row, y0);
      const next = x + dxdy * dy;
      const d = dy * dir;
      const [a, b] = x < next ? [x, next] : [next, x];
      // Text starts 2 px in: x is never negative.
      const aFloor = Math.floor(a);
      const bi = Math.ceil(b);
      const at = row * stride + aFloor;
      if (bi <= aFloor + 1) {
        // Within one column: split by where the edge's midpoint falls.
        const mid = 0.5 * (x + next) - aFloor;
        area[at] = (area[at] as number) + d - d * mid;
        area[at + 1] = (area[at + 1] as number) + d * mid;
      } else {
        const s = 1 / (b - a);
        const af = a - aFloor;
        const a0 = 0.5 * s * (1 - af) * (1 - af);
        const bf = b - bi + 1;
        const am = 0.5 * s * bf * bf;
        area[at] = (area[at] as number) + d * a0;
        if (bi === aFloor + 2) {
          area[at + 1] = (area[at + 1] as number) + d * (1 - a0 - am);
        } else {
          const a1 = s * (1.5 - af);
          area[at + 1] = (area[at + 1] as number) + d * (a1 - a0);
          for (let xi = aFloor + 2; xi < bi - 1; xi++) area[row * stride + xi] = (area[row * stride + xi] as number) + d * s;
          const a2 = a1 + (bi - aFloor - 3) * s;
          area[row * stride + bi - 1] = (area[row * stride + bi - 1] as number) + d * (1 - a2 - am);
        }
        area[row * stride + bi] = (area[row * stride + bi] as number) + d * am;
      }
      x = next;
    }
  }

  /** The running sums as coverage, kept for covered pixels only. */
  mask(): TextMask {
    const { area, stride, width, height } = this;
    const xs: number[] = [];
    const ys: number[] = [];
    const alphas: number[] = [];
    let right = 0;
    let bottom = 0;
    for (let y = 0; y < height; y++) {
      let sum = 0;
      for (let x = 0; x < stride; x++) {
        sum += area[y * stride + x] as number;
        const alpha = Math.min(255, Math.round(Math.abs(sum) * 255));
        if (!alpha || x >= width) continue;
        xs.push(x);
        ys.push(y);
        alphas.push(alpha);
        if (x > right) right = x;
        if (y > bottom) bottom = y;
      }
    }
    return { width: right + 1, height: bottom + 1, xs: Uint16Array.from(xs), ys: Uint16Array.from(ys), alphas: Uint8Array.from(alphas) };
  }
}
