import { Bitmap } from '../raster/bitmap.ts';

/**
 * Decoding of ESC/POS image data into 1-bit bitmaps in printer dots. Data that the command
 * announced but did not carry (never happens after framing, but header values may be
 * absurd) reads as white.
 */

/** Upper bound on the dots of one image: larger requests are rejected as malformed. */
export const MAX_IMAGE_PIXELS = 1 << 26;

export function tooLarge(w: number, h: number): boolean {
  return w * h > MAX_IMAGE_PIXELS;
}

/** ESC * m nL nH d: m selects 8/24-dot rows and single/double horizontal density. */
export function escStarImage(b: Uint8Array): { bitmap: Bitmap; mode: string } | null {
  const m = b[2];
  const cols = b[3] + b[4] * 256;
  let bytesPerCol: number, sx: number, sy: number, mode: string;
  switch (m) {
    case 0: bytesPerCol = 1; sx = 2; sy = 3; mode = '8-dot single density'; break;
    case 1: bytesPerCol = 1; sx = 1; sy = 3; mode = '8-dot double density'; break;
    case 32: bytesPerCol = 3; sx = 2; sy = 1; mode = '24-dot single density'; break;
    case 33: bytesPerCol = 3; sx = 1; sy = 1; mode = '24-dot double density'; break;
    default: return null;
  }
  const bmp = Bitmap.fromColumns(cols, bytesPerCol, b, 5).scale(sx, sy);
  return { bitmap: bmp, mode };
}

/** Raster scale modes (GS v 0, FS p, GS /): 0 normal, 1 double width, 2 double height, 3 quadruple. */
export function scaleMode(m: number): [number, number, string] {
  switch (m & 3) {
    case 1: return [2, 1, 'double width'];
    case 2: return [1, 2, 'double height'];
    case 3: return [2, 2, 'quadruple'];
    default: return [1, 1, 'normal'];
  }
}

/** GS v 0 m xL xH yL yH d. */
export function gsV0Image(b: Uint8Array): { bitmap: Bitmap; scale: string } | null {
  const m = b[3];
  if (!(m <= 3 || (m >= 48 && m <= 51))) return null;
  const wb = b[4] + b[5] * 256, h = b[6] + b[7] * 256;
  const [sx, sy, scale] = scaleMode(m);
  if (tooLarge(wb * 8 * sx, h * sy)) return null;
  return { bitmap: Bitmap.fromPackedRows(wb, h, b, 8).scale(sx, sy), scale };
}

/** GS * x y d: downloaded bit image, x*8 columns of y bytes. */
export function gsStarImage(b: Uint8Array): Bitmap {
  const x = b[2], y = b[3];
  return Bitmap.fromColumns(x * 8, y, b, 4);
}

/** GS Q 0 m xL xH yL yH d: variable vertical size bit image (columns of y bytes). */
export function gsQ0Image(b: Uint8Array): { bitmap: Bitmap; scale: string } | null {
  const m = b[3];
  const x = b[4] + b[5] * 256, y = b[6] + b[7] * 256;
  const [sx, sy, scale] = scaleMode(m);
  if (tooLarge(x * sx, y * 8 * sy)) return null;
  return { bitmap: Bitmap.fromColumns(x, y, b, 8).scale(sx, sy), scale };
}

/** FS q n [xL xH yL yH d]...: the n images, each x*8 columns of y bytes. */
export function fsQImages(b: Uint8Array): Bitmap[] {
  const n = b[2];
  const out: Bitmap[] = [];
  let pos = 3;
  for (let i = 0; i < n; i++) {
    const x = b[pos] + b[pos + 1] * 256, y = b[pos + 2] + b[pos + 3] * 256;
    const k = x * y * 8;
    out.push(Bitmap.fromColumns(x * 8, y, b, pos + 4));
    pos += 4 + k;
  }
  return out;
}

/** Crop a bitmap to a maximum width (images wider than the paper). */
export function cropWidth(bmp: Bitmap, maxWidth: number): Bitmap {
  if (bmp.width <= maxWidth || maxWidth <= 0) return bmp;
  const out = new Bitmap(maxWidth, bmp.height);
  for (let y = 0; y < bmp.height; y++) out.pixels.set(bmp.pixels.subarray(y * bmp.width, y * bmp.width + maxWidth), y * maxWidth);
  return out;
}

/**
 * GS ( L / GS 8 L graphics data (function 112 raster, 113 column, 67/68 NV define,
 * 83/84 download define): `a bx by c xL xH yL yH d...` starting at `off` (the `a` byte).
 * Returns the bitmap already scaled by bx/by when `applyScale`.
 */
export function graphicsImage(b: Uint8Array, off: number, end: number, column: boolean, applyScale: boolean): { bitmap: Bitmap; bx: number; by: number } | null {
  if (end - off < 8) return null;
  const bx = b[off + 1], by = b[off + 2];
  const w = b[off + 4] + b[off + 5] * 256, h = b[off + 6] + b[off + 7] * 256;
  if ((bx !== 1 && bx !== 2) || (by !== 1 && by !== 2)) return null;
  if (w === 0 || h === 0 || tooLarge(w * bx, h * by)) return null;
  const data = b.subarray(0, end);
  let bmp: Bitmap;
  if (column) {
    bmp = Bitmap.fromColumns(w, Math.ceil(h / 8), data, off + 8);
    if (bmp.height !== h) bmp = cropHeight(bmp, h);
  } else {
    const wb = Math.ceil(w / 8);
    bmp = Bitmap.fromPackedRows(wb, h, data, off + 8);
    if (bmp.width !== w) bmp = cropWidth(bmp, w);
  }
  return { bitmap: applyScale ? bmp.scale(bx, by) : bmp, bx, by };
}

function cropHeight(bmp: Bitmap, h: number): Bitmap {
  return new Bitmap(bmp.width, h, bmp.pixels.slice(0, bmp.width * h));
}
