import type { Canvas, DebugElement, ImageElement, RenderedJob, TextElement, BoxElement } from '../../../src/engines/canvas/model.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { createZplSession, newZplPrinterMemory, type ZplPrinterMemory, type ZplSessionOptions } from '../../../src/engines/zpl/index.ts';
import { labelPrinterContext } from '../../support/printer-context.ts';

export { bitmapOf, zxingDecode, qrDecode, BarcodeFormat } from '../epl/helpers.ts';

const enc = new TextEncoder();

export interface ZplRun {
  job: RenderedJob;
  replies: string[];
}

/** Run a ZPL job (UTF-8 text or bytes), pushed in chunks of `chunk` bytes (all at once by default). */
export function zpl(input: string | Uint8Array, opts: { chunk?: number; ctx?: PrinterContext; memory?: ZplPrinterMemory; session?: ZplSessionOptions } = {}): ZplRun {
  const data = typeof input === 'string' ? enc.encode(input) : input;
  const ctx = opts.ctx ?? labelPrinterContext();
  const s = createZplSession(() => ctx, { memory: opts.memory, ...opts.session });
  const replies: string[] = [];
  const step = Math.max(1, opts.chunk ?? data.length);
  for (let i = 0; i < data.length; i += step) for (const r of s.push(data.subarray(i, i + step)).replies) replies.push(String.fromCharCode(...r));
  return { job: s.finish(), replies };
}

export { newZplPrinterMemory };

export const texts = (c: Canvas): TextElement[] => c.items.filter((i): i is TextElement => i.type === 'text');
export const images = (c: Canvas): ImageElement[] => c.items.filter((i): i is ImageElement => i.type === 'image');
export const boxes = (c: Canvas): BoxElement[] => c.items.filter((i): i is BoxElement => i.type === 'box');
export const debugs = (job: RenderedJob): DebugElement[] => job.canvases.flatMap((c) => c.items.filter((i): i is DebugElement => i.type === 'debug'));
export const accounted = (job: RenderedJob): number => debugs(job).reduce((n, d) => n + d.lengthInBytes, 0);

/**
 * Decode with zxing-cpp (zxing-wasm): the readers @zxing/library lacks (UPC-E, MicroPDF417,
 * DataBar Limited / Expanded / Stacked, EAN-5 add-ons). The wasm binary comes from node_modules.
 */
export async function zxingCpp(bmp: import('../../../src/engines/raster/bitmap.ts').Bitmap, format: string): Promise<string | null> {
  await import('../raster/maxicode-decode.ts'); // prepares the zxing-wasm module from node_modules
  const { readBarcodes } = await import('zxing-wasm/reader');
  const pad = 30, scale = 2;
  const w = (bmp.width + 2 * pad) * scale, h = (bmp.height + 2 * pad) * scale;
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < bmp.height; y++) {
    for (let x = 0; x < bmp.width; x++) {
      if (bmp.pixels[y * bmp.width + x] !== 1) continue;
      for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) {
        const i = (((y + pad) * scale + dy) * w + (x + pad) * scale + dx) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
    }
  }
  const results = await readBarcodes({ data, width: w, height: h, colorSpace: 'srgb' } as ImageData, { formats: [format as never], tryHarder: true, textMode: 'Plain' });
  return results.find((r) => r.isValid)?.text ?? null;
}
