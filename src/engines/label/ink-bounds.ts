/**
 * Where an image element's black dots lie on the paper: a graphic whose rows carry white
 * padding past the label's edge (a driver rounding rows up to whole bytes) cuts nothing black,
 * so only its ink decides whether it overflows the label.
 */
import type { ImageElement } from '../canvas/model.ts';
import type { Bitmap } from '../raster/bitmap.ts';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Black-dot bounds by bitmap (label copies share one bitmap); null: the bitmap is all white. */
const inkByBitmap = new WeakMap<Bitmap, Rect | null>();

/** The smallest rectangle holding every black dot of `bmp`, in its own coordinates, or null when it has none. */
export function inkRect(bmp: Bitmap): Rect | null {
  if (inkByBitmap.has(bmp)) return inkByBitmap.get(bmp)!;
  let x0 = bmp.width, y0 = bmp.height, x1 = -1, y1 = -1;
  const px = bmp.pixels;
  for (let y = 0; y < bmp.height; y++) {
    const row = y * bmp.width;
    let first = -1, last = -1;
    for (let x = 0; x < bmp.width; x++) if (px[row + x]) { if (first < 0) first = x; last = x; }
    if (first < 0) continue;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y < y0) y0 = y;
    y1 = y;
  }
  const r = x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  inkByBitmap.set(bmp, r);
  return r;
}

/**
 * The paper rectangle of the black dots of image element `el` drawn from `bmp` (its content
 * turned clockwise by the element's rotation inside its box), or null when it prints nothing.
 */
export function inkOnPaper(el: ImageElement, bmp: Bitmap): Rect | null {
  const r = inkRect(bmp);
  if (!r) return null;
  const w = bmp.width, h = bmp.height;
  switch (el.rotation) {
    case '90': return { x: el.x + h - (r.y + r.h), y: el.y + r.x, w: r.h, h: r.w };
    case '180': return { x: el.x + w - (r.x + r.w), y: el.y + h - (r.y + r.h), w: r.w, h: r.h };
    case '270': return { x: el.x + r.y, y: el.y + w - (r.x + r.w), w: r.h, h: r.w };
    default: return { x: el.x + r.x, y: el.y + r.y, w: r.w, h: r.h };
  }
}
