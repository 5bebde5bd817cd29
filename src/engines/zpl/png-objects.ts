/**
 * PNG images downloaded with ~DY (extension P): decoded with fast-png and thresholded to the
 * printer's 1-bit raster (dark and opaque pixels print).
 */
import { decode } from 'fast-png';
import { Bitmap } from '../raster/bitmap.ts';

const MAX_DOTS = 1 << 24;

export function decodePng(bytes: Uint8Array): { ok: true; bitmap: Bitmap } | { ok: false; error: string } {
  try {
    const img = decode(bytes);
    const { width, height, channels, depth } = img;
    if (width * height > MAX_DOTS) return { ok: false, error: `PNG of ${width}x${height} is too large` };
    const data = img.data as ArrayLike<number>;
    const max = depth === 16 ? 65535 : (1 << depth) - 1;
    const palette = img.palette;
    const bmp = new Bitmap(width, height);
    for (let i = 0; i < width * height; i++) {
      let lum: number, alpha = 1;
      if (palette) {
        const entry = palette[data[i]] ?? [255, 255, 255];
        lum = (entry[0] * 0.3 + entry[1] * 0.59 + entry[2] * 0.11) / 255;
        alpha = entry.length > 3 ? (entry[3] ?? 255) / 255 : 1;
      } else if (channels >= 3) {
        const o = i * channels;
        lum = (data[o] * 0.3 + data[o + 1] * 0.59 + data[o + 2] * 0.11) / max;
        if (channels === 4) alpha = data[o + 3] / max;
      } else {
        const o = i * channels;
        lum = data[o] / max;
        if (channels === 2) alpha = data[o + 1] / max;
      }
      if (alpha >= 0.5 && lum < 0.5) bmp.pixels[i] = 1;
    }
    return { ok: true, bitmap: bmp };
  } catch (e) {
    return { ok: false, error: `not a valid PNG: ${e instanceof Error ? e.message : String(e)}` };
  }
}
