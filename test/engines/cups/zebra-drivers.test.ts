/**
 * Labels printed through CUPS's stock Zebra drivers (the ZPL and EPL2 PPDs of CUPS's sample
 * drivers, `rastertolabel`), as a Linux or macOS box sends them: a PDF and a PNG at 203 and
 * 300 dpi, as one label, two pages and two copies. Each label Slipstream prints must be the
 * driver's own raster (what `rastertolabel` was given) to the dot, turned as the driver orders
 * (its ZPL asks for ^POI, a label printed upside down), and its codes must decode.
 */
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { createProtocolSession, type RenderedJob } from '../../../src/engines/index.ts';
import { renderRaster } from '../../../src/engines/render/index.ts';
import { renderLinearBarcode, renderMatrixCode } from '../../../src/engines/raster/barcode.ts';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { pngOf } from '../../../src/engines/raster/png.ts';
import { labelPrinterContext } from '../../support/printer-context.ts';
import { printerBytes, rasterPages, type PrintOptions, type RasterPage, type ZebraDriver } from '../../support/cups.ts';
import { zxingCpp } from '../zpl/helpers.ts';

const QR_TEXT = 'https://slipstream.example/cups/label-42';
const CODE128_TEXT = 'CUPS-128-0042';
const PAGE = 'w288h432';

function symbol(r: ReturnType<typeof renderMatrixCode>): Bitmap {
  if (!r.ok) throw new Error(r.error);
  return r.value.bitmap;
}
const qr = symbol(renderMatrixCode({ bcid: 'qrcode', text: QR_TEXT, moduleSize: 1, options: { eclevel: 'M' } }));
const bars = symbol(renderLinearBarcode({ bcid: 'code128', text: CODE128_TEXT, moduleWidth: 1, height: 1 }));

/** A white-bordered PNG of a 1-bit picture scaled `k` times (black = dark). */
function png(b: Bitmap, k: number, border = 8): Uint8Array {
  const w = (b.width + 2 * border) * k, h = (b.height + 2 * border) * k;
  const out = new Bitmap(w, h);
  for (let y = 0; y < b.height; y++) for (let x = 0; x < b.width; x++) if (b.get(x, y)) out.fillRect((x + border) * k, (y + border) * k, k, k);
  return pngOf(out).png;
}

async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const qrPng = await doc.embedPng(png(qr, 8));
  const barsPng = await doc.embedPng(png(bars, 4, 10));
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([288, 432]);
    page.drawText(`SLIPSTREAM PAGE ${i + 1}`, { x: 20, y: 400, size: 18, font });
    page.drawRectangle({ x: 10, y: 10, width: 268, height: 412, borderWidth: 3, borderColor: rgb(0, 0, 0) });
    page.drawImage(qrPng, { x: 40, y: 190, width: 180, height: 180 });
    page.drawImage(barsPng, { x: 20, y: 60, width: 248, height: 110 });
  }
  return doc.save();
}

/** The PNG label: the QR Code above the Code 128 (3 pixels a module), white around. */
function labelPng(): Uint8Array {
  const m = 3;
  const width = (bars.width + 20) * m;
  const k = Math.floor(width / (qr.width + 8));
  const top = new Bitmap(width, (qr.height + 8) * k + 200);
  for (let y = 0; y < qr.height; y++) for (let x = 0; x < qr.width; x++) if (qr.get(x, y)) top.fillRect((x + 4) * k, (y + 4) * k, k, k);
  const by = (qr.height + 8) * k + 30;
  for (let x = 0; x < bars.width; x++) if (bars.get(x, 0)) top.fillRect((x + 10) * m, by, m, 140);
  return pngOf(top).png;
}

function print(bytes: Uint8Array, driver: ZebraDriver, dpi: number): RenderedJob {
  const ctx = labelPrinterContext({ widthInDots: dpi === 300 ? 1200 : 812, heightInDots: dpi === 300 ? 1800 : 1218 });
  const session = createProtocolSession(driver === 'zpl' ? 'Zpl' : 'Epl', () => ctx);
  for (let i = 0; i < bytes.length; i += 4096) session.push(bytes.subarray(i, i + 4096));
  return session.finish();
}

function rotate180(b: Bitmap): Bitmap {
  const out = new Bitmap(b.width, b.height);
  for (let i = 0; i < b.pixels.length; i++) out.pixels[b.pixels.length - 1 - i] = b.pixels[i];
  return out;
}

/**
 * The raster on a label of `width` x `height` dots, turned 180 degrees when the driver asks for
 * ^POI: a printer turns the whole label (its media's length), not just the graphic.
 */
function onLabel(r: RasterPage, width: number, height: number, inverted: boolean): RasterPage {
  const black = new Uint8Array(width * height);
  for (let y = 0; y < Math.min(height, r.height); y++) {
    for (let x = 0; x < Math.min(width, r.width); x++) {
      if (!r.black[y * r.width + x]) continue;
      black[inverted ? (height - 1 - y) * width + (width - 1 - x) : y * width + x] = 1;
    }
  }
  return { width, height, black };
}

/** Dots that differ between our label and the raster, over the raster's area (outside it ours must be white). */
function differingDots(ours: Bitmap, raster: RasterPage): number {
  let n = 0;
  const w = Math.max(ours.width, raster.width), h = Math.max(ours.height, raster.height);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = ours.get(x, y);
      const b = x < raster.width && y < raster.height && raster.black[y * raster.width + x] === 1;
      if (a !== b) n++;
    }
  }
  return n;
}

async function labelsOf(job: RenderedJob): Promise<Bitmap[]> {
  const out: Bitmap[] = [];
  for (let i = 0; i < job.canvases.length; i++) {
    const { page } = await renderRaster(job.canvases, { canvasIndex: i });
    const b = new Bitmap(page.width, page.height);
    for (let y = 0; y < page.height; y++) for (let x = 0; x < page.width; x++) if (page.get(x, y)) b.set(x, y);
    out.push(b);
  }
  return out;
}

/**
 * `labels`: what the driver's commands print. rastertolabel's ZPL asks for copies with ^PQ;
 * its EPL2 output ends every page with P1 whatever the copies (observed with CUPS 2.4.2).
 */
interface Case { name: string; document: () => Promise<Uint8Array>; file: string; labels: Record<ZebraDriver, number>; copies?: number }
const CASES: Case[] = [
  { name: 'a PDF, one label', document: () => pdf(1), file: 'label.pdf', labels: { zpl: 1, epl2: 1 } },
  { name: 'a PNG, one label', document: async () => labelPng(), file: 'label.png', labels: { zpl: 1, epl2: 1 } },
  { name: 'a PDF of two pages', document: () => pdf(2), file: 'two.pdf', labels: { zpl: 2, epl2: 2 } },
  { name: 'a PDF, two copies', document: () => pdf(1), file: 'copies.pdf', labels: { zpl: 2, epl2: 1 }, copies: 2 },
];

describe.each(['zpl', 'epl2'] as const)('CUPS Zebra %s driver', (driver) => {
  describe.each([203, 300] as const)('at %i dpi', (dpi) => {
    it.each(CASES)('$name prints as the driver rasterised it, and its codes decode', async (c) => {
      const document = await c.document();
      const o: PrintOptions = { driver, dpi, pageSize: PAGE, copies: c.copies };
      const bytes = printerBytes(document, c.file, o);
      const rasters = rasterPages(document, c.file, { ...o, copies: undefined });
      const job = print(bytes, driver, dpi);
      expect(job.errorMessages).toEqual([]);
      const labels = await labelsOf(job);
      expect(labels).toHaveLength(c.labels[driver]);
      const inverted = driver === 'zpl' && Buffer.from(bytes).includes('^POI');
      for (let i = 0; i < labels.length; i++) {
        const raster = rasters[i % rasters.length];
        const expected = onLabel(raster, labels[i].width, labels[i].height, inverted);
        expect(Math.abs(labels[i].width - raster.width), 'label width').toBeLessThanOrEqual(8);
        expect(labels[i].countBlack()).toBeGreaterThan(1000);
        expect(differingDots(labels[i], expected), `label ${i + 1}`).toBe(0);
        const upright = inverted ? rotate180(labels[i]) : labels[i];
        expect(await zxingCpp(upright, 'QRCode')).toBe(QR_TEXT);
        expect(await zxingCpp(upright, 'Code128')).toBe(CODE128_TEXT);
      }
    }, 60_000);
  });
});
