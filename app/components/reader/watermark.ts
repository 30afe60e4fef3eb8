/**
 * Draws the reader's identity into a rendered page: a light diagonal tiling across the page, so a
 * screenshot or photo of any part of it names who was reading, and one legible line at the foot.
 */
export function drawWatermark(canvas: HTMLCanvasElement, lines: string[]): void {
  const ctx = canvas.getContext("2d");
  if (!ctx || lines.length === 0) return;
  const { width, height } = canvas;
  const text = lines.join("  ·  ");
  const size = Math.max(10, Math.round(width / 46));
  ctx.save();
  ctx.font = `600 ${size}px system-ui, sans-serif`;
  ctx.fillStyle = "rgba(30, 41, 59, 0.11)";
  ctx.translate(width / 2, height / 2);
  ctx.rotate(-Math.PI / 6);
  const step = ctx.measureText(text).width + size * 4;
  const diagonal = Math.hypot(width, height);
  for (let y = -diagonal / 2; y < diagonal / 2; y += size * 7) {
    const offset = (Math.round(y / (size * 7)) % 2) * (step / 2);
    for (let x = -diagonal / 2 - offset; x < diagonal / 2; x += step) ctx.fillText(text, x, y);
  }
  ctx.restore();

  ctx.save();
  const footer = Math.max(9, Math.round(width / 80));
  ctx.font = `${footer}px system-ui, sans-serif`;
  ctx.fillStyle = "rgba(30, 41, 59, 0.45)";
  ctx.textAlign = "center";
  ctx.fillText(text, width / 2, height - footer * 0.9, width * 0.96);
  ctx.restore();
}
