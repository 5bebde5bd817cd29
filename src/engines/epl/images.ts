/**
 * PNG encoding of bitmaps for the EPL engine, with memoisation: one PNG per bitmap object, and
 * the way back from a PNG we produced to its bitmap (for cropping images that overflow the
 * label). Same format as `../raster/png.ts` (1-bit palette, index 0 white and transparent,
 * index 1 black and opaque), but packs 8 dots at a time and packs identical consecutive rows
 * (the bars of a linear bar code) only once: bar codes dominate label rendering time.
 */
import { encode } from 'fast-png';
import type { PngImage } from '../canvas/model.ts';
import type { Bitmap } from '../raster/bitmap.ts';

const PALETTE: [number, number, number][] = [
  [255, 255, 255],
  [0, 0, 0],
];
const TRANSPARENCY = new Uint16Array([0, 255]);

const pngOfBitmap = new WeakMap<Bitmap, PngImage>();
const bitmapOfPng = new WeakMap<PngImage, Bitmap>();

function sameRow(px: Uint8Array, a: number, b: number, w: number): boolean {
  for (let i = 0; i < w; i++) if (px[a + i] !== px[b + i]) return false;
  return true;
}

export function encodePng(bitmap: Bitmap): PngImage {
  const { width, height, pixels } = bitmap;
  const w = Math.max(1, width), h = Math.max(1, height);
  const stride = Math.ceil(w / 8);
  const packed = new Uint8Array(stride * h);
  const full = width >> 3;
  for (let y = 0; y < height; y++) {
    const src = y * width;
    const dst = y * stride;
    if (y > 0 && sameRow(pixels, src - width, src, width)) {
      packed.copyWithin(dst, dst - stride, dst);
      continue;
    }
    let x = 0;
    for (let b = 0; b < full; b++, x += 8) {
      const i = src + x;
      packed[dst + b] =
        (pixels[i] << 7) | (pixels[i + 1] << 6) | (pixels[i + 2] << 5) | (pixels[i + 3] << 4) |
        (pixels[i + 4] << 3) | (pixels[i + 5] << 2) | (pixels[i + 6] << 1) | pixels[i + 7];
    }
    for (; x < width; x++) if (pixels[src + x] === 1) packed[dst + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const png = encode({ width: w, height: h, data: packed, depth: 1, channels: 1, palette: PALETTE, transparency: TRANSPARENCY });
  return { png, widthInDots: width, heightInDots: height };
}

export function pngOf(b: Bitmap): PngImage {
  let p = pngOfBitmap.get(b);
  if (!p) {
    p = encodePng(b);
    pngOfBitmap.set(b, p);
    bitmapOfPng.set(p, b);
  }
  return p;
}

export function bitmapOf(png: PngImage): Bitmap | undefined {
  return bitmapOfPng.get(png);
}
