/** The figures a demo book's pages carry (charts, diagrams), each drawn in a box with the book's palette. */
import { type Box, type Ctx, GREY, INK, LIGHT, polygon, WHITE } from "./pdf-drawing.ts";

function axes(c: Ctx, b: Box, steps: number) {
  for (let i = 1; i <= steps; i++) {
    const y = b.y + (b.h * i) / steps;
    c.page.drawLine({ start: { x: b.x, y }, end: { x: b.x + b.w, y }, thickness: 0.4, color: LIGHT, dashArray: [2, 2] });
    c.page.drawText(String((100 / steps) * i), { x: b.x - 16, y: y - 2.5, size: 7, font: c.fonts.sans, color: GREY });
  }
  c.page.drawLine({ start: { x: b.x, y: b.y }, end: { x: b.x + b.w, y: b.y }, thickness: 1, color: INK });
  c.page.drawLine({ start: { x: b.x, y: b.y }, end: { x: b.x, y: b.y + b.h }, thickness: 1, color: INK });
}

export const FIGURES: { caption: string; draw: (c: Ctx, b: Box) => void }[] = [
  {
    caption: "A bar chart comparing results in {t}",
    draw(c, b) {
      const plot = { x: b.x + 24, y: b.y + 16, w: b.w - 36, h: b.h - 24 };
      axes(c, plot, 4);
      const n = 4 + Math.floor(c.rand() * 3);
      const slot = plot.w / n;
      for (let i = 0; i < n; i++) {
        const v = 15 + Math.round(c.rand() * 85);
        const x = plot.x + slot * i + slot * 0.2;
        const color = i % 2 ? c.pal.secondary : c.pal.primary;
        c.page.drawRectangle({ x, y: plot.y, width: slot * 0.6, height: (plot.h * v) / 100, color });
        c.page.drawText(String(v), { x: x + slot * 0.3 - 5, y: plot.y + (plot.h * v) / 100 + 3, size: 7, font: c.fonts.bold, color: INK });
        const label = c.labels[i % c.labels.length]!;
        const lw = c.fonts.sans.widthOfTextAtSize(label, 7.5);
        c.page.drawText(label, { x: x + slot * 0.3 - lw / 2, y: plot.y - 11, size: 7.5, font: c.fonts.sans, color: INK });
      }
    },
  },
  {
    caption: "A line graph of two groups over seven weeks of {t}",
    draw(c, b) {
      const plot = { x: b.x + 24, y: b.y + 16, w: b.w - 130, h: b.h - 24 };
      axes(c, plot, 5);
      [c.pal.primary, c.pal.secondary].forEach((color, s) => {
        let v = 20 + c.rand() * 30;
        let prev: { x: number; y: number } | null = null;
        for (let i = 0; i < 7; i++) {
          v = Math.min(98, Math.max(4, v + (c.rand() - 0.35) * 22));
          const pt = { x: plot.x + 12 + ((plot.w - 24) * i) / 6, y: plot.y + (plot.h * v) / 100 };
          if (prev) c.page.drawLine({ start: prev, end: pt, thickness: 1.6, color });
          c.page.drawCircle({ ...pt, size: 2.6, color, borderColor: WHITE, borderWidth: 0.8 });
          if (s === 0) c.page.drawText(`W${i + 1}`, { x: pt.x - 5, y: plot.y - 11, size: 7.5, font: c.fonts.sans, color: INK });
          prev = pt;
        }
        c.page.drawRectangle({ x: plot.x + plot.w + 20, y: plot.y + plot.h - 20 - s * 18, width: 10, height: 10, color });
        const name = `Group ${"AB"[s]}`;
        c.page.drawText(name, { x: plot.x + plot.w + 36, y: plot.y + plot.h - 18 - s * 18, size: 8.5, font: c.fonts.sans, color: INK });
      });
    },
  },
  {
    caption: "A circle diagram showing the parts of {t}",
    draw(c, b) {
      const r = b.h / 2 - 4;
      const cx = b.x + b.w * 0.3;
      const cy = b.y + b.h / 2;
      const values = Array.from({ length: 3 + Math.floor(c.rand() * 3) }, () => 1 + c.rand() * 3);
      const total = values.reduce((a, v) => a + v, 0);
      const colors = [c.pal.primary, c.pal.secondary, c.pal.accent, GREY, LIGHT];
      let angle = Math.PI / 2;
      values.forEach((v, i) => {
        const sweep = (v / total) * Math.PI * 2;
        const pts = [cx, cy];
        for (let a = 0; a <= 24; a++) {
          const t = angle - (sweep * a) / 24;
          pts.push(cx + r * Math.cos(t), cy + r * Math.sin(t));
        }
        polygon(c.page, pts, { color: colors[i], borderColor: WHITE, borderWidth: 1.2 });
        angle -= sweep;
        const ly = cy + r - 12 - i * 20;
        c.page.drawRectangle({ x: b.x + b.w * 0.58, y: ly, width: 10, height: 10, color: colors[i] });
        const text = `${c.labels[i % c.labels.length]}: ${Math.round((v / total) * 100)}%`;
        c.page.drawText(text, { x: b.x + b.w * 0.58 + 16, y: ly + 2, size: 9, font: c.fonts.sans, color: INK });
      });
      c.page.drawCircle({ x: cx, y: cy, size: r * 0.35, color: c.pal.pale });
    },
  },
  {
    caption: "Shapes and measurements used in {t}",
    draw(c, b) {
      const s = Math.min(b.h - 20, b.w / 3 - 24);
      const y0 = b.y + (b.h - s) / 2;
      const fill = { color: c.pal.secondary, opacity: 0.3, borderColor: c.pal.primary, borderWidth: 1.5 };
      const x1 = b.x + 8;
      polygon(c.page, [x1, y0, x1 + s, y0, x1 + s * (0.2 + c.rand() * 0.6), y0 + s], fill);
      const x2 = b.x + b.w / 3 + 12;
      const rh = s * (0.5 + c.rand() * 0.4);
      c.page.drawRectangle({ x: x2, y: y0, width: s, height: rh, ...fill });
      c.page.drawLine({ start: { x: x2, y: y0 }, end: { x: x2 + s, y: y0 + rh }, thickness: 0.8, color: GREY, dashArray: [3, 2] });
      c.page.drawText(`${Math.round(s / 12)} cm`, { x: x2 + s / 2 - 10, y: y0 - 11, size: 8, font: c.fonts.sans, color: INK });
      const sides = 5 + Math.floor(c.rand() * 4);
      const cx = b.x + (b.w * 5) / 6;
      const cy = b.y + b.h / 2;
      const pts = Array.from({ length: sides }, (_, i) => Math.PI / 2 + (i * Math.PI * 2) / sides).flatMap((t) => [
        cx + (s / 2) * Math.cos(t),
        cy + (s / 2) * Math.sin(t),
      ]);
      c.page.drawCircle({ x: cx, y: cy, size: s / 2, borderColor: c.pal.accent, borderWidth: 1.2 });
      polygon(c.page, pts, fill);
      c.page.drawLine({ start: { x: cx, y: cy }, end: { x: cx + s / 2, y: cy }, thickness: 1, color: INK });
      c.page.drawText("r", { x: cx + s / 4 - 2, y: cy + 4, size: 9, font: c.fonts.serif, color: INK });
      ["A", "B", "C"].forEach((l, i) => {
        const [px, py] = i === 2 ? [x1 + s / 2, y0 + s + 4] : [x1 + i * s - 4, y0 - 11];
        c.page.drawText(l, { x: px, y: py, size: 9, font: c.fonts.bold, color: INK });
      });
    },
  },
  {
    caption: "A table summarising {t}",
    draw(c, b) {
      const cols = 4;
      const rows = 5;
      const cw = b.w / cols;
      const rh = b.h / rows;
      for (let r = 0; r < rows; r++) {
        const y = b.y + b.h - (r + 1) * rh;
        const color = r === 0 ? c.pal.primary : r % 2 ? WHITE : c.pal.pale;
        c.page.drawRectangle({ x: b.x, y, width: b.w, height: rh, color, borderColor: LIGHT, borderWidth: 0.5 });
        for (let k = 0; k < cols; k++) {
          const text =
            r === 0 ? (k ? `Trial ${k}` : "Item") : k ? String(Math.round(c.rand() * 90) + 10) : c.labels[(r - 1) % c.labels.length]!;
          const font = r === 0 || k === 0 ? c.fonts.bold : c.fonts.sans;
          c.page.drawText(text, { x: b.x + k * cw + 10, y: y + rh / 2 - 3.5, size: 10, font, color: r === 0 ? WHITE : INK });
        }
      }
    },
  },
  {
    caption: "A labelled diagram of {t}",
    draw(c, b) {
      const cx = b.x + b.w / 2;
      const cy = b.y + b.h / 2;
      const r = b.h / 2 - 8;
      const outline = { borderColor: c.pal.primary, borderWidth: 1.5 };
      c.page.drawEllipse({ x: cx, y: cy, xScale: r * 1.3, yScale: r, color: c.pal.secondary, opacity: 0.25, ...outline });
      c.page.drawCircle({ x: cx - r * 0.35, y: cy + r * 0.1, size: r * 0.38, color: c.pal.accent, opacity: 0.7 });
      c.page.drawCircle({ x: cx + r * 0.45, y: cy - r * 0.2, size: r * 0.25, color: c.pal.primary, opacity: 0.6 });
      const anchors = [-0.35, 0.1, 0.45, -0.2, 0, 0.8, -0.9, -0.5].flatMap((v, i, all) =>
        i % 2 ? [] : [[cx + v * r, cy + all[i + 1]! * r] as const],
      );
      // Labels go on the anchor's own side, ordered top to bottom, so leader lines never cross.
      let n = 0;
      for (const left of [true, false]) {
        const side = anchors.filter(([ax]) => ax < cx === left).sort((p, q) => q[1] - p[1]);
        side.forEach(([ax, ay], i) => {
          const lx = left ? b.x + 70 : b.x + b.w - 70;
          const ly = b.y + b.h - 28 - (i * (b.h - 40)) / Math.max(1, side.length - 1);
          c.page.drawLine({ start: { x: ax, y: ay }, end: { x: lx, y: ly + 3 }, thickness: 0.8, color: INK });
          c.page.drawCircle({ x: ax, y: ay, size: 2.5, color: INK });
          n++;
          const label = `${n}. ${c.labels[(n + 1) % c.labels.length]}`;
          const lw = c.fonts.bold.widthOfTextAtSize(label, 9);
          c.page.drawText(label, { x: left ? lx - lw - 4 : lx + 4, y: ly, size: 9, font: c.fonts.bold, color: INK });
        });
      }
    },
  },
];
