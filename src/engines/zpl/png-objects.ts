/**
 * PNG images downloaded with ~DY (format or extension P): decoded by the shared PNG decoder
 * and thresholded to the printer's 1-bit raster (dark and opaque pixels print).
 */
import type { Bitmap } from '../raster/bitmap.ts';
import { decodePngToBitmap } from '../raster/png.ts';

const MAX_DOTS = 1 << 24;

export function decodePng(bytes: Uint8Array): { ok: true; bitmap: Bitmap } | { ok: false; error: string } {
  try {
    // The shared decoder reads every PNG colour type and bit depth (1-bit palette included).
    const bmp = decodePngToBitmap(bytes);
    if (bmp.width * bmp.height > MAX_DOTS) return { ok: false, error: `PNG of ${bmp.width}x${bmp.height} is too large` };
    return { ok: true, bitmap: bmp };
  } catch (e) {
    return { ok: false, error: `not a valid PNG: ${e instanceof Error ? e.message : String(e)}` };
  }
}
