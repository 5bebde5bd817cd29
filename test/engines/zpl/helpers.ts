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
