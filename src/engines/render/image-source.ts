/**
 * Image element pixels as packed 1-bit rows. The engines' own PNGs (1-bit, palette) are
 * taken over row for row; any other PNG (uploads, other encoders) goes through the shared
 * decoder's rule (dark and opaque prints).
 */
import { decode } from 'fast-png';
import { Bitmap } from '../raster/bitmap.ts';
import { decodePngToBitmap } from '../raster/png.ts';
import { PackedRaster } from './raster.ts';
import type { ImageSource } from './types.ts';

function prints(palette: number[][], transparency: Uint16Array | undefined, index: number): boolean {
  const [r, g, b] = palette[index] ?? [255, 255, 255];
  const alpha = transparency && index < transparency.length ? transparency[index] / 255 : 1;
  return alpha >= 0.5 && 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

function fromBitmap(bmp: Bitmap): PackedRaster {
  const out = new PackedRaster(bmp.width, bmp.height);
  for (let y = 0; y < bmp.height; y++) {
    const row = y * bmp.width;
    for (let x = 0; x < bmp.width; x++) if (bmp.pixels[row + x] === 1) out.data[y * out.stride + (x >> 3)] |= 0x80 >> (x & 7);
  }
  return out;
}

function fromPng(png: Uint8Array): PackedRaster {
  const img = decode(png);
  if (img.depth === 1 && img.channels === 1 && img.palette) {
    const one = prints(img.palette, img.transparency as Uint16Array | undefined, 1);
    const zero = prints(img.palette, img.transparency as Uint16Array | undefined, 0);
    const out = new PackedRaster(img.width, img.height);
    const data = img.data as Uint8Array;
    if (one && !zero) out.data.set(data.subarray(0, out.data.length));
    else if (zero && !one) for (let i = 0; i < out.data.length; i++) out.data[i] = ~data[i] & 0xff;
    else if (zero && one) out.data.fill(0xff);
    return out;
  }
  return fromBitmap(decodePngToBitmap(png));
}

export function toPackedImage(source: ImageSource): PackedRaster {
  return source instanceof Bitmap ? fromBitmap(source) : fromPng(source);
}

/** Rotated clockwise by `degrees` (image elements' rotation). */
export function rotatePacked(src: PackedRaster, degrees: 0 | 90 | 180 | 270): PackedRaster {
  if (degrees === 0) return src;
  const { width: w, height: h } = src;
  const out = degrees === 180 ? new PackedRaster(w, h) : new PackedRaster(h, w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (!src.get(x, y)) continue;
    if (degrees === 90) out.plot(h - 1 - y, x);
    else if (degrees === 180) out.plot(w - 1 - x, h - 1 - y);
    else out.plot(y, w - 1 - x);
  }
  return out;
}
