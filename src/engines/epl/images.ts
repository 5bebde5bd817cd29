/**
 * PNG encoding of bitmaps with memoisation: one PNG per bitmap object, and the way back from
 * a PNG we produced to its bitmap (for cropping images that overflow the label).
 */
import type { PngImage } from '../canvas/model.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import { encodeBitmapPng } from '../raster/png.ts';

const pngOfBitmap = new WeakMap<Bitmap, PngImage>();
const bitmapOfPng = new WeakMap<PngImage, Bitmap>();

export function pngOf(b: Bitmap): PngImage {
  let p = pngOfBitmap.get(b);
  if (!p) {
    p = encodeBitmapPng(b);
    pngOfBitmap.set(b, p);
    bitmapOfPng.set(p, b);
  }
  return p;
}

export function bitmapOf(png: PngImage): Bitmap | undefined {
  return bitmapOfPng.get(png);
}
