/**
 * Test helpers: decode a rendered Bitmap with real barcode readers (@zxing/library, jsqr),
 * after scaling it up and surrounding it with a quiet zone as a scanner would see it on paper.
 */
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import jsQR from 'jsqr';
import type { Bitmap } from '../../../src/engines/raster/bitmap.ts';

/** Grayscale (0 black, 255 white) with `quiet` white dots around and every dot `scale` x `scale`. */
export function toLuminance(bmp: Bitmap, scale = 1, quiet = 20): { data: Uint8ClampedArray; width: number; height: number } {
  const width = (bmp.width + 2 * quiet) * scale;
  const height = (bmp.height + 2 * quiet) * scale;
  const data = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < bmp.height; y++) {
    for (let x = 0; x < bmp.width; x++) {
      if (bmp.pixels[y * bmp.width + x] !== 1) continue;
      for (let dy = 0; dy < scale; dy++) {
        const row = ((y + quiet) * scale + dy) * width;
        for (let dx = 0; dx < scale; dx++) data[row + (x + quiet) * scale + dx] = 0;
      }
    }
  }
  return { data, width, height };
}

export interface ZxingResult { text: string; format: BarcodeFormat; raw: Uint8Array | null; }

export function zxingDecode(bmp: Bitmap, formats: BarcodeFormat[], opts: { scale?: number; quiet?: number; pure?: boolean; gs1?: boolean } = {}): ZxingResult {
  const { data, width, height } = toLuminance(bmp, opts.scale ?? 1, opts.quiet ?? 20);
  const source = new RGBLuminanceSource(data, width, height);
  const bitmap = new BinaryBitmap(new HybridBinarizer(source));
  const hints = new Map<DecodeHintType, unknown>();
  hints.set(DecodeHintType.POSSIBLE_FORMATS, formats);
  hints.set(DecodeHintType.TRY_HARDER, true);
  if (opts.pure) hints.set(DecodeHintType.PURE_BARCODE, true);
  if (opts.gs1) hints.set(DecodeHintType.ASSUME_GS1, true);
  const reader = new MultiFormatReader();
  const result = reader.decode(bitmap, hints);
  return { text: result.getText(), format: result.getBarcodeFormat(), raw: result.getRawBytes() ?? null };
}

export function jsqrDecode(bmp: Bitmap, scale = 2, quiet = 8): { data: string; bytes: number[] } | null {
  const { data, width, height } = toLuminance(bmp, scale, quiet);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i++) {
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = data[i];
    rgba[i * 4 + 3] = 255;
  }
  const r = jsQR(rgba, width, height);
  return r ? { data: r.data, bytes: r.binaryData } : null;
}

/** Widths of the runs of row `y` (alternating, starting with the first pixel's colour). */
export function runs(bmp: Bitmap, y = 0): { black: boolean; width: number }[] {
  const out: { black: boolean; width: number }[] = [];
  for (let x = 0; x < bmp.width; x++) {
    const b = bmp.pixels[y * bmp.width + x] === 1;
    const last = out[out.length - 1];
    if (last && last.black === b) last.width++;
    else out.push({ black: b, width: 1 });
  }
  return out;
}
