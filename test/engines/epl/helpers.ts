import { BarcodeFormat } from '@zxing/library';
import { jsqrDecode, zxingDecode as decodeWithZxing } from '../raster/decode-helpers.ts';
import type { Canvas, CanvasElement, DebugElement, ImageElement, RenderedJob, TextElement } from '../../../src/engines/canvas/model.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import { createEplSession } from '../../../src/engines/epl/index.ts';
import type { EplSessionOptions } from '../../../src/engines/epl/index.ts';
import { labelPrinterContext, latin1 } from '../../support/printer-context.ts';

export const context = (over: Partial<PrinterContext> = {}): PrinterContext => labelPrinterContext(over);

export const bytes = latin1;

export { concatBytes as concat } from '../../support/printer-context.ts';

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

/** Decode with ZXing (via the shared raster decode helpers). Returns the text and format, or null. */
export function zxingDecode(bmp: Bitmap, formats: BarcodeFormat[], pure = false): { text: string; format: BarcodeFormat } | null {
  try {
    const { text, format } = decodeWithZxing(bmp, formats, { quiet: 40, pure });
    return { text, format };
  } catch {
    return null;
  }
}

export function qrDecode(bmp: Bitmap): string | null {
  return jsqrDecode(bmp, 1, 16)?.data ?? null;
}

export { BarcodeFormat };
