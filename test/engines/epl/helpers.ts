import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import jsQR from 'jsqr';
import type { Canvas, CanvasElement, DebugElement, ImageElement, RenderedJob, TextElement } from '../../../src/engines/canvas/model.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import { createEplSession } from '../../../src/engines/epl/index.ts';
import type { EplSessionOptions } from '../../../src/engines/epl/index.ts';
import { labelPrinterContext, latin1 } from '../../support/printer-context.ts';

export const context = (over: Partial<PrinterContext> = {}): PrinterContext => labelPrinterContext(over);

export const bytes = latin1;

export function concat(...parts: Array<Uint8Array | string>): Uint8Array {
  const arrs = parts.map((p) => (typeof p === 'string' ? bytes(p) : p));
  const out = new Uint8Array(arrs.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of arrs) {
    out.set(a, o);
    o += a.length;
  }
  return out;
}

export const text = (b: Uint8Array): string => String.fromCharCode(...b);

export interface RunResult {
  job: RenderedJob;
  replies: string[];
}

/** Run a job, pushed in chunks of `chunk` bytes (whole at once by default). */
export function run(input: Uint8Array | string, opts: { chunk?: number; ctx?: PrinterContext; session?: EplSessionOptions } = {}): RunResult {
  const data = typeof input === 'string' ? bytes(input) : input;
  const ctx = opts.ctx ?? context();
  const s = createEplSession(() => ctx, { now: () => new Date(2026, 0, 2, 3, 4, 5), ...opts.session });
  const replies: string[] = [];
  const step = opts.chunk ?? data.length;
  for (let i = 0; i < data.length; i += Math.max(1, step)) {
    for (const r of s.push(data.subarray(i, i + Math.max(1, step))).replies) replies.push(text(r));
  }
  return { job: s.finish(), replies };
}

export const lines = (...ls: string[]): string => ls.map((l) => l + '\r\n').join('');

export function debugs(job: RenderedJob): DebugElement[] {
  return job.canvases.flatMap((c) => c.items.filter((i): i is DebugElement => i.type === 'debug'));
}

export function drawn(c: Canvas): CanvasElement[] {
  return c.items.filter((i) => i.type !== 'debug');
}

export function texts(c: Canvas): TextElement[] {
  return c.items.filter((i): i is TextElement => i.type === 'text');
}

export function images(c: Canvas): ImageElement[] {
  return c.items.filter((i): i is ImageElement => i.type === 'image');
}

/** The invariant: debug lengths add up to bytesReceived, which is every byte pushed. */
export function accounted(job: RenderedJob): number {
  return debugs(job).reduce((n, d) => n + d.lengthInBytes, 0);
}

export function bitmapOf(el: ImageElement): Bitmap {
  return decodePngToBitmap(el.image.png);
}

/** Luminance image of a bitmap with a white quiet zone, optionally upscaled. */
function luminance(bmp: Bitmap, quiet: number, scale = 1): { data: Uint8ClampedArray; width: number; height: number } {
  const width = (bmp.width + 2 * quiet) * scale, height = (bmp.height + 2 * quiet) * scale;
  const data = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < bmp.height; y++) {
    for (let x = 0; x < bmp.width; x++) {
      if (!bmp.pixels[y * bmp.width + x]) continue;
      for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) data[((y + quiet) * scale + dy) * width + (x + quiet) * scale + dx] = 0;
    }
  }
  return { data, width, height };
}

/** Decode with ZXing. Returns the text and format, or null. */
export function zxingDecode(bmp: Bitmap, formats: BarcodeFormat[], pure = false): { text: string; format: BarcodeFormat } | null {
  const { data, width, height } = luminance(bmp, 40);
  const source = new RGBLuminanceSource(data, width, height);
  const hints = new Map<DecodeHintType, unknown>();
  hints.set(DecodeHintType.POSSIBLE_FORMATS, formats);
  hints.set(DecodeHintType.TRY_HARDER, true);
  if (pure) hints.set(DecodeHintType.PURE_BARCODE, true);
  const reader = new MultiFormatReader();
  reader.setHints(hints);
  try {
    const r = reader.decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
    return { text: r.getText(), format: r.getBarcodeFormat() };
  } catch {
    return null;
  }
}

export function qrDecode(bmp: Bitmap): string | null {
  const { data, width, height } = luminance(bmp, 16);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i++) {
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = data[i];
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, width, height)?.data ?? null;
}

export { BarcodeFormat };
