import type { CanvasElement, ImageElement, RenderedJob, TextElement, DebugElement } from '../../../src/engines/canvas/model.ts';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import type { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

export const context = (over: Partial<PrinterContext> = {}): PrinterContext => testPrinterContext(over);

/** Bytes from a mix of strings (latin1, one byte per char), numbers and arrays. */
export function bytes(...parts: (string | number | number[] | Uint8Array)[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === 'string') for (const c of p) out.push(c.charCodeAt(0) & 0xff);
    else if (typeof p === 'number') out.push(p);
    else out.push(...p);
  }
  return Uint8Array.from(out);
}

export const ESC = '\x1b', GS = '\x1d', FS = '\x1c', DLE = '\x10', LF = '\n';

export function render(data: Uint8Array, ctx: PrinterContext = context(), chunk = 0): RenderedJob {
  const s = createEscPosSession(() => ctx);
  if (chunk > 0) for (let i = 0; i < data.length; i += chunk) s.push(data.subarray(i, i + chunk));
  else s.push(data);
  return s.finish();
}

export const all = (job: RenderedJob): CanvasElement[] => job.canvases.flatMap((c) => c.items);
export const texts = (job: RenderedJob, canvas?: number): TextElement[] =>
  (canvas === undefined ? all(job) : job.canvases[canvas].items).filter((e): e is TextElement => e.type === 'text');
export const images = (job: RenderedJob): ImageElement[] => all(job).filter((e): e is ImageElement => e.type === 'image');
export const debugs = (job: RenderedJob): DebugElement[] => all(job).filter((e): e is DebugElement => e.type === 'debug');
export const printedText = (job: RenderedJob): string => texts(job).map((t) => t.text).join('\n');
export const bitmapOf = (img: ImageElement): Bitmap => decodePngToBitmap(img.image.png);

export function checkInvariants(job: RenderedJob, total: number): void {
  const sum = debugs(job).reduce((s, d) => s + d.lengthInBytes, 0);
  if (sum !== total || job.bytesReceived !== total) throw new Error(`byte accounting: debug ${sum}, bytesReceived ${job.bytesReceived}, pushed ${total}`);
}
