import type { CanvasElement, ImageElement, RenderedJob, TextElement } from '../../../src/engines/canvas/model.ts';
import type { PrinterContext, PushResult } from '../../../src/engines/canvas/printer-context.ts';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import type { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { createStarSession, type StarLanguage } from '../../../src/engines/star/index.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

export const context = (over: Partial<PrinterContext> = {}): PrinterContext => testPrinterContext(over);

export type Language = 'EscPos' | StarLanguage;

/** Feeds `data` in chunks of `chunk` bytes (0: at once); returns the job and every reply and event. */
export function run(language: Language, data: Uint8Array, ctx: PrinterContext = context(), chunk = 0): { job: RenderedJob; out: PushResult } {
  const s = language === 'EscPos' ? createEscPosSession(() => ctx) : createStarSession(language, () => ctx);
  const out: PushResult = { replies: [], events: [] };
  const take = (r: PushResult) => { out.replies.push(...r.replies); out.events.push(...r.events); };
  if (chunk > 0) for (let i = 0; i < data.length; i += chunk) take(s.push(data.subarray(i, i + chunk)));
  else take(s.push(data));
  return { job: s.finish(), out };
}

export const all = (job: RenderedJob): CanvasElement[] => job.canvases.flatMap((c) => c.items);
export const texts = (items: CanvasElement[]): TextElement[] => items.filter((e): e is TextElement => e.type === 'text');
export const images = (items: CanvasElement[]): ImageElement[] => items.filter((e): e is ImageElement => e.type === 'image');
export const bitmapOf = (img: ImageElement): Bitmap => decodePngToBitmap(img.image.png);

/**
 * The printed text of each canvas, line by line as a reader sees the paper: the text
 * elements of one line (same top) joined left to right, trailing spaces dropped, blank
 * lines left out.
 */
export function printedLines(job: RenderedJob): string[][] {
  return job.canvases.map((c) => {
    const byY = new Map<number, TextElement[]>();
    for (const t of texts(c.items)) byY.set(t.y, [...(byY.get(t.y) ?? []), t]);
    return [...byY.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, row]) => row.sort((a, b) => a.x - b.x).map((t) => t.text).join('').trimEnd())
      .filter((l) => l.trim().length > 0);
  });
}

/** Every byte accounted for: the debug elements' lengths add up to what was pushed. */
export function byteAccounting(job: RenderedJob): number {
  return all(job).filter((e) => e.type === 'debug').reduce((s, d) => s + d.lengthInBytes, 0);
}
