/**
 * Runs a client library's bytes through the engines as a printer of a given model would:
 * `createProtocolSession` with a context naming the model (the same `modelContext` the
 * Worker's printer object builds), fed in odd-sized chunks.
 */
import { createProtocolSession, type RenderedJob } from '../../../src/engines/index.ts';
import type { CanvasElement, ImageElement, TextElement } from '../../../src/engines/canvas/model.ts';
import { getModel, modelContext, type MultiByteEncoding, type PrinterModel } from '../../../src/engines/models/index.ts';
import { splitCells } from '../../../src/engines/text/index.ts';
import { decodePngToBitmap } from '../../../src/engines/raster/png.ts';
import type { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

export function model(id: string): PrinterModel {
  const m = getModel(id);
  if (!m) throw new Error(`no printer model ${id}`);
  return m;
}

export function runJob(bytes: Uint8Array, modelId: string, opts: { multiByteEncoding?: MultiByteEncoding; widthInDots?: number; chunk?: number } = {}): RenderedJob {
  const m = model(modelId);
  const ctx = {
    ...testPrinterContext({ widthInDots: opts.widthInDots ?? m.defaultWidthInDots }),
    ...modelContext(m, opts.multiByteEncoding ?? m.defaultMultiByteEncoding),
  };
  const protocol = m.protocols[0] === 'Epl' ? 'Epl' : 'EscPos';
  const session = createProtocolSession(protocol, () => ctx);
  const chunk = opts.chunk ?? 7;
  for (let i = 0; i < bytes.length; i += chunk) session.push(bytes.subarray(i, i + chunk));
  const job = session.finish();
  const debugBytes = job.canvases.flatMap((c) => c.items).reduce((n, e) => n + (e.type === 'debug' ? e.lengthInBytes : 0), 0);
  if (job.bytesReceived !== bytes.length || debugBytes !== bytes.length) {
    throw new Error(`byte accounting: received ${job.bytesReceived}, debug ${debugBytes}, sent ${bytes.length}`);
  }
  return job;
}

const items = (job: RenderedJob): CanvasElement[] => job.canvases.flatMap((c) => c.items);
export const textElements = (job: RenderedJob): TextElement[] => items(job).filter((e): e is TextElement => e.type === 'text');
export const imageElements = (job: RenderedJob): ImageElement[] => items(job).filter((e): e is ImageElement => e.type === 'image');
export const bitmapOf = (img: ImageElement): Bitmap => decodePngToBitmap(img.image.png);

/**
 * The printed lines of a job, top to bottom per canvas: text elements on one baseline joined
 * in x order, runs of spaces collapsed and ends trimmed (libraries pad with spaces to align).
 */
export function printedLines(job: RenderedJob): string[] {
  const lines: string[] = [];
  for (const canvas of job.canvases) {
    const byBottom = new Map<number, TextElement[]>();
    for (const e of canvas.items) if (e.type === 'text') byBottom.set(e.y + e.height, [...(byBottom.get(e.y + e.height) ?? []), e]);
    for (const bottom of [...byBottom.keys()].sort((a, b) => a - b)) {
      let line = '';
      let end = -1;
      for (const e of byBottom.get(bottom)!.sort((a, b) => a.x - b.x)) {
        // Elements of one line touch unless the sender moved the print position between them.
        if (end >= 0 && e.x > end + 1) line += ' ';
        line += e.text;
        end = e.x + e.width;
      }
      line = line.replace(/\s+/g, ' ').trim();
      if (line) lines.push(line);
    }
  }
  return lines;
}

/** East Asian wide characters take two cells (Kanji font) on a receipt printer. */
export function isWide(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x20000 && cp <= 0x3fffd);
}

export interface Glyph {
  /** What one cell prints: a base character and the combining marks stacked on it. */
  cell: string;
  /** Horizontal centre of the cell in dots. */
  centerX: number;
  /** Bottom of the line in dots. */
  lineBottom: number;
}

/**
 * Every printed non-blank cell of a job with the centre of its cell: combining marks share the
 * cell of their base (`splitCells`), wide characters take two cells.
 */
export function printedGlyphs(job: RenderedJob): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const e of textElements(job)) {
    const cells = splitCells(e.text);
    const units = cells.reduce((n, c) => n + (isWide(c) ? 2 : 1), 0);
    if (units === 0) continue;
    const unit = e.width / units;
    let at = e.x;
    for (const cell of cells) {
      const w = (isWide(cell) ? 2 : 1) * unit;
      if (cell.trim()) glyphs.push({ cell, centerX: Math.round(at + w / 2), lineBottom: e.y + e.height });
      at += w;
    }
  }
  return glyphs;
}

/** Glyphs grouped into lines, top to bottom, each line left to right. */
export function glyphLines(glyphs: Glyph[]): Glyph[][] {
  const byLine = new Map<number, Glyph[]>();
  for (const g of glyphs) byLine.set(g.lineBottom, [...(byLine.get(g.lineBottom) ?? []), g]);
  return [...byLine.keys()].sort((a, b) => a - b).map((y) => byLine.get(y)!.sort((a, b) => a.centerX - b.centerX));
}
