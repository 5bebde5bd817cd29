/**
 * Rasters of the ZPL graphic shapes that the canvas model has no element for: rounded boxes
 * (^GB with corner rounding), circles (^GC), ellipses (^GE) and diagonal lines (^GD). A square
 * box is a `box` element instead (see render.ts).
 */
import { Bitmap } from '../raster/bitmap.ts';

/** Largest shape side accepted (dots): ^GB accepts up to 32000. */
export const MAX_SHAPE = 32000;
const MAX_SHAPE_DOTS = 1 << 24;

function canvas(w: number, h: number): Bitmap | null {
  if (w < 1 || h < 1 || w * h > MAX_SHAPE_DOTS) return null;
  return new Bitmap(w, h);
}

/** Inside test of an ellipse with semi-axes a, b centred in a w x h box (pixel centres). */
function insideEllipse(x: number, y: number, cx: number, cy: number, a: number, b: number): boolean {
  if (a <= 0 || b <= 0) return false;
  const dx = (x + 0.5 - cx) / a, dy = (y + 0.5 - cy) / b;
  return dx * dx + dy * dy <= 1;
}

/** ^GE / ^GC: an ellipse ring of thickness t (filled when t reaches the centre). */
export function ellipse(w: number, h: number, t: number, white: boolean): Bitmap | null {
  const bmp = canvas(w, h);
  if (!bmp) return null;
  const cx = w / 2, cy = h / 2;
  const a = w / 2, b = h / 2;
  const ia = a - t, ib = b - t;
  const px = bmp.pixels;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (insideEllipse(x, y, cx, cy, a, b) && !insideEllipse(x, y, cx, cy, ia, ib)) px[y * w + x] = white ? 0 : 1;
    }
  }
  return bmp;
}

/** ^GB with rounding r (1–8): corner radius r/8 of the shorter side / 2, as Zebra scales it. */
export function roundedBox(w: number, h: number, t: number, rounding: number): Bitmap | null {
  const bmp = canvas(w, h);
  if (!bmp) return null;
  const radius = Math.round((Math.min(w, h) / 2) * (rounding / 8));
  const inside = (x: number, y: number, W: number, H: number, r: number, ox: number, oy: number): boolean => {
    const lx = x - ox, ly = y - oy;
    if (lx < 0 || ly < 0 || lx >= W || ly >= H) return false;
    if (r <= 0) return true;
    const cx = lx < r ? r : lx >= W - r ? W - r : lx + 0.5;
    const cy = ly < r ? r : ly >= H - r ? H - r : ly + 0.5;
    const dx = lx + 0.5 - cx, dy = ly + 0.5 - cy;
    return dx * dx + dy * dy <= r * r;
  };
  const px = bmp.pixels;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (inside(x, y, w, h, radius, 0, 0) && !inside(x, y, w - 2 * t, h - 2 * t, Math.max(0, radius - t), t, t)) px[y * w + x] = 1;
    }
  }
  return bmp;
}

/**
 * ^GD: a diagonal line of horizontal thickness t across a w x h box; 'R' leans right (from
 * the lower left to the upper right corner), 'L' leans left.
 */
export function diagonal(w: number, h: number, t: number, lean: 'R' | 'L'): Bitmap | null {
  const bmp = canvas(w, h);
  if (!bmp) return null;
  const px = bmp.pixels;
  const run = Math.max(0, w - t);
  for (let y = 0; y < h; y++) {
    const f = h <= 1 ? 0 : y / (h - 1);
    const x0 = Math.round(lean === 'L' ? f * run : (1 - f) * run);
    for (let x = x0; x < Math.min(w, x0 + t); x++) px[y * w + x] = 1;
  }
  return bmp;
}
