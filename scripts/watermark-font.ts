// Writes workers/stamp/watermark-font.ts: the outlines of DejaVu Sans Condensed for the
// characters a teacher's watermark lines may hold, packed small enough to ship in the Worker
// (decision 0012, revision 2). Build-time only:
//   node scripts/watermark-font.ts [path/to/DejaVuSansCondensed.ttf]
// Reads the TrueType tables it needs (cmap format 4, hmtx, loca, glyf, composites flattened) by
// hand: no font library, and the output is the same bytes for the same font file.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FONT_FILE = process.argv[2] ?? "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf";
const OUT = fileURLToPath(new URL("../workers/stamp/watermark-font.ts", import.meta.url));
/** Outline coordinates are stored in 1/512 em: under a tenth of a pixel at the largest size drawn (28 px). */
const UNITS = 512;
/** Basic Latin, Latin-1, Latin Extended-A, Greek, basic Cyrillic, and the punctuation names and dates use. */
const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0x17f],
  [0x370, 0x3ff],
  [0x400, 0x45f],
  [0x2010, 0x2027],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
];

type Point = [x: number, y: number, onCurve: boolean];

const font = new DataView(readFileSync(FONT_FILE).buffer);
const tables = new Map<string, number>();
for (let i = 0, count = font.getUint16(4); i < count; i++) {
  const record = 12 + 16 * i;
  const tag = String.fromCharCode(...[0, 1, 2, 3].map((k) => font.getUint8(record + k)));
  tables.set(tag, font.getUint32(record + 8));
}
const table = (tag: string) => {
  const at = tables.get(tag);
  if (at === undefined) throw new Error(`${FONT_FILE}: no ${tag} table`);
  return at;
};
const head = table("head");
const upm = font.getUint16(head + 18);
const longLoca = font.getInt16(head + 50) === 1;
const hhea = table("hhea");
const [ascent, descent, hMetrics] = [font.getInt16(hhea + 4), font.getInt16(hhea + 6), font.getUint16(hhea + 34)];
const [hmtx, loca, glyf] = [table("hmtx"), table("loca"), table("glyf")];

const advance = (glyph: number) => font.getUint16(hmtx + 4 * Math.min(glyph, hMetrics - 1));
const glyphStart = (glyph: number) => (longLoca ? font.getUint32(loca + 4 * glyph) : 2 * font.getUint16(loca + 2 * glyph));

/** Unicode BMP -> glyph index, from the (3, 1) format-4 cmap subtable. */
function glyphIndex(code: number): number {
  const cmap = table("cmap");
  let sub = -1;
  for (let i = 0; i < font.getUint16(cmap + 2); i++) {
    const record = cmap + 4 + 8 * i;
    if (font.getUint16(record) === 3 && font.getUint16(record + 2) === 1) sub = cmap + font.getUint32(record + 4);
  }
  if (sub < 0 || font.getUint16(sub) !== 4) throw new Error("no Windows Unicode BMP (format 4) cmap");
  const segX2 = font.getUint16(sub + 6);
  for (let s = 0; s < segX2; s += 2) {
    if (font.getUint16(sub + 14 + s) < code) continue;
    const start = font.getUint16(sub + 16 + segX2 + s);
    if (start > code) return 0;
    const delta = font.getInt16(sub + 16 + 2 * segX2 + s);
    const rangeAt = sub + 16 + 3 * segX2 + s;
    const range = font.getUint16(rangeAt);
    if (!range) return (code + delta) & 0xffff;
    const glyph = font.getUint16(rangeAt + range + 2 * (code - start));
    return glyph ? (glyph + delta) & 0xffff : 0;
  }
  return 0;
}

/** A glyph's contours in font units, composites flattened. */
function contours(glyph: number): Point[][] {
  const at = glyf + glyphStart(glyph);
  if (glyphStart(glyph + 1) === glyphStart(glyph)) return [];
  const count = font.getInt16(at);
  if (count < 0) return composite(at + 10);
  const ends = Array.from({ length: count }, (_, i) => font.getUint16(at + 10 + 2 * i));
  const points = count ? (ends[count - 1] as number) + 1 : 0;
  let p = at + 10 + 2 * count;
  p += 2 + font.getUint16(p);
  const flags: number[] = [];
  while (flags.length < points) {
    const flag = font.getUint8(p++);
    flags.push(flag);
    if (flag & 8) for (let r = font.getUint8(p++); r > 0; r--) flags.push(flag);
  }
  const read = (short: number, same: number) => {
    let value = 0;
    return flags.map((flag) => {
      if (flag & short) value += flag & same ? font.getUint8(p++) : -font.getUint8(p++);
      else if (!(flag & same)) {
        value += font.getInt16(p);
        p += 2;
      }
      return value;
    });
  };
  const xs = read(2, 16);
  const ys = read(4, 32);
  const all: Point[] = flags.map((flag, i) => [xs[i] as number, ys[i] as number, (flag & 1) === 1]);
  return ends.map((end, i) => all.slice(i ? (ends[i - 1] as number) + 1 : 0, end + 1));
}

function composite(start: number): Point[][] {
  const out: Point[][] = [];
  let p = start;
  for (let more = true; more; ) {
    const flags = font.getUint16(p);
    const component = font.getUint16(p + 2);
    p += 4;
    const words = flags & 1;
    const dx = words ? font.getInt16(p) : font.getInt8(p);
    const dy = words ? font.getInt16(p + 2) : font.getInt8(p + 1);
    p += words ? 4 : 2;
    // Point-matched offsets (ARGS_ARE_XY_VALUES unset) do not occur in the ranges drawn.
    const [ox, oy] = flags & 2 ? [dx, dy] : [0, 0];
    let [a, b, c, d] = [1, 0, 0, 1];
    const f2dot14 = (at: number) => font.getInt16(at) / 16384;
    if (flags & 8) {
      a = d = f2dot14(p);
      p += 2;
    } else if (flags & 0x40) {
      [a, d] = [f2dot14(p), f2dot14(p + 2)];
      p += 4;
    } else if (flags & 0x80) {
      [a, b, c, d] = [f2dot14(p), f2dot14(p + 2), f2dot14(p + 4), f2dot14(p + 6)];
      p += 8;
    }
    for (const contour of contours(component)) out.push(contour.map(([x, y, on]) => [a * x + c * y + ox, b * x + d * y + oy, on]));
    more = (flags & 0x20) !== 0;
  }
  return out;
}

const bytes: number[] = [];
const varint = (value: number) => {
  let v = value;
  while (v > 127) {
    bytes.push((v & 127) | 128);
    v >>>= 7;
  }
  bytes.push(v);
};
const zigzag = (value: number) => (value < 0 ? -2 * value - 1 : 2 * value);
const units = (value: number) => Math.round((value * UNITS) / upm);

function writeGlyph(glyph: number) {
  varint(units(advance(glyph)));
  const shapes = contours(glyph);
  varint(shapes.length);
  let [px, py] = [0, 0];
  for (const contour of shapes) {
    varint(contour.length);
    for (const [x, y, on] of contour) {
      const [qx, qy] = [units(x), units(y)];
      varint(zigzag(qx - px) * 2 + (on ? 1 : 0));
      varint(zigzag(qy - py));
      [px, py] = [qx, qy];
    }
  }
}

// Layout: the fallback glyph (.notdef, a box) first, then each drawn code point as a delta from the last.
varint(zigzag(units(ascent)));
varint(zigzag(units(descent)));
writeGlyph(0);
const codes = RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i)).filter((code) => glyphIndex(code));
varint(codes.length);
let last = 0;
for (const code of codes) {
  varint(code - last);
  last = code;
  writeGlyph(glyphIndex(code));
}

const data = Buffer.from(bytes).toString("base64");
const lines: string[] = data.match(/.{1,120}/g) ?? [];
writeFileSync(
  OUT,
  `// Generated by scripts/watermark-font.ts from DejaVu Sans Condensed (Bitstream Vera / DejaVu licence:
// free to use, embed and redistribute). Do not edit: re-run the script.
// ${codes.length} characters; outlines in 1/${UNITS} em as zigzag varints, base64 (layout in the script).

export const FONT_DATA =
${lines.map((line) => `  "${line}"`).join(" +\n")};
`,
);
console.log(`${codes.length} characters, ${bytes.length} bytes, ${data.length} base64 -> ${OUT}`);
