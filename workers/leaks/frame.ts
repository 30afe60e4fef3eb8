/**
 * The stored page's frame (its 1024 px rendition) and the similarity that carries it into a suspect's
 * pixels: u = s(x cos t - y sin t) + tx, v = s(x sin t + y cos t) + ty (locate.ts).
 */
import type { Grey } from "./grey.ts";

export const FRAME_WIDTH = 1024;

export interface Transform {
  s: number;
  theta: number;
  tx: number;
  ty: number;
}

export const DEGREE = Math.PI / 180;

/** The frame point a suspect pixel shows. */
export function invert(t: Transform, u: number, v: number): [number, number] {
  const cos = Math.cos(t.theta) / t.s;
  const sin = Math.sin(t.theta) / t.s;
  const du = u - t.tx;
  const dv = v - t.ty;
  return [cos * du + sin * dv, -sin * du + cos * dv];
}

export function apply(t: Transform, x: number, y: number): [number, number] {
  const cos = Math.cos(t.theta) * t.s;
  const sin = Math.sin(t.theta) * t.s;
  return [cos * x - sin * y + t.tx, sin * x + cos * y + t.ty];
}

/** The transform of scale `s` and turn `theta` that puts frame point (x, y) at suspect point `at`. */
export function pinned(s: number, theta: number, x: number, y: number, at: [number, number]): Transform {
  const [u, v] = apply({ s, theta, tx: 0, ty: 0 }, x, y);
  return { s, theta, tx: at[0] - u, ty: at[1] - v };
}

/** The transform moved along the page's y axis by `dy` frame pixels. */
export function slid(t: Transform, dy: number): Transform {
  return { ...t, tx: t.tx - Math.sin(t.theta) * t.s * dy, ty: t.ty + Math.cos(t.theta) * t.s * dy };
}

/** Bilinear sample at (u, v) in pixel-centre coordinates, NaN outside the image. */
function sample({ width, height, data }: Grey, u: number, v: number): number {
  const x = u - 0.5;
  const y = v - 0.5;
  if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) return Number.NaN;
  const x0 = Math.max(0, Math.min(width - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(height - 1, Math.floor(y)));
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const a = data[y0 * width + x0] as number;
  const b = data[y0 * width + x1] as number;
  const c = data[y1 * width + x0] as number;
  const d = data[y1 * width + x1] as number;
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

/**
 * The suspect seen in the page's frame at `frameWidth` px (the 1024 px frame scaled): each frame
 * pixel's centre mapped through the transform, sampled from the suspect's pyramid level whose
 * pixels are about the frame pixel's size. NaN where the suspect has no pixel.
 */
export function warpToFrame(levels: Grey[], t: Transform, frameWidth: number, frameHeight: number, step = 1): Grey {
  const unit = FRAME_WIDTH / frameWidth; // frame px of the 1024 frame per output px
  const footprint = t.s * unit; // suspect px per output px
  const level = Math.max(0, Math.min(levels.length - 1, Math.floor(Math.log2(Math.max(1, footprint / 1.5)))));
  const image = levels[level] as Grey;
  const k = 1 / 2 ** level;
  const cos = Math.cos(t.theta) * t.s * k;
  const sin = Math.sin(t.theta) * t.s * k;
  const width = Math.ceil(frameWidth / step);
  const height = Math.ceil(frameHeight / step);
  const out = new Float32Array(width * height);
  for (let j = 0; j < height; j++) {
    const y = (j * step + 0.5) * unit;
    for (let i = 0; i < width; i++) {
      const x = (i * step + 0.5) * unit;
      out[j * width + i] = sample(image, cos * x - sin * y + t.tx * k, sin * x + cos * y + t.ty * k);
    }
  }
  return { width, height, data: out };
}

/** Two hypotheses that place the page within half a thumbnail pixel (8 frame px) of each other. */
export function sameish(a: Transform, b: Transform): boolean {
  return (
    Math.abs(a.s / b.s - 1) < 0.01 && Math.abs(a.theta - b.theta) < 0.002 && Math.hypot(a.tx - b.tx, a.ty - b.ty) < 8 * Math.min(a.s, b.s)
  );
}

export function same(a: Transform, b: Transform): boolean {
  return a.s === b.s && a.theta === b.theta && a.tx === b.tx && a.ty === b.ty;
}
