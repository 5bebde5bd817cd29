import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import jsQR from 'jsqr';
import type { RenderedJob } from '../../../src/engines/canvas/model.ts';
import { bitmapOf, checkInvariants, context, images, printedText, render, texts } from './helpers.ts';

/**
 * Receipts produced at test time by real client libraries, run through the engine.
 */
const require = createRequire(import.meta.url);

function run(data: Uint8Array, ctx = context()): RenderedJob {
  const job = render(data, ctx, 7); // odd chunking on purpose
  checkInvariants(job, data.length);
  return job;
}

/** A w x h RGBA image: black rectangle border 2 px wide, white inside. */
function testImage(w: number, h: number): { data: Uint8ClampedArray; width: number; height: number } {
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  }
  return { data, width: w, height: h };
}

function qrText(img: ReturnType<typeof images>[number]): string | null {
  const bmp = bitmapOf(img);
  const pad = 16, w = bmp.width + 2 * pad, h = bmp.height + 2 * pad;
  const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < bmp.height; y++) for (let x = 0; x < bmp.width; x++) {
    if (bmp.get(x, y)) rgba.fill(0, ((y + pad) * w + x + pad) * 4, ((y + pad) * w + x + pad) * 4 + 3);
  }
  return jsQR(rgba, w, h)?.data ?? null;
}

describe('@point-of-sale/receipt-printer-encoder', () => {
  for (const imageMode of ['raster', 'column'] as const) {
    it(`text styles, code pages, image (${imageMode}), QR, PDF417, barcode, cut, pulse`, () => {
      const enc = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48, imageMode });
      const data = enc
        .initialize()
        .codepage('auto')
        .line('Plain line')
        .bold(true).line('Bold line').bold(false)
        .underline(true).line('Underlined').underline(false)
        .invert(true).line('Inverted').invert(false)
        .size(2, 2).line('Big').size(1, 1)
        .align('center').line('Centered').align('left')
        .line('Größe: 12,50 €')
        .line('Привет мир')
        .image(testImage(64, 48), 64, 48, 'threshold')
        .qrcode('https://slipstream.example/r/42', { model: 2, size: 6, errorlevel: 'm' })
        .pdf417('PDF417 data 123')
        .barcode('012345678905', 'upca', 60)
        .cut()
        .line('Second receipt')
        .pulse()
        .cut()
        .encode();
      const job = run(data);
      expect(job.errorMessages.some((e) => e.includes('GS w'))).toBe(false);
      expect(job.canvases).toHaveLength(2);
      const t = texts(job, 0);
      const find = (s: string) => t.find((e) => e.text.includes(s));
      expect(find('Plain line')).toBeDefined();
      expect(find('Bold line')?.isBold).toBe(true);
      expect(find('Underlined')?.isUnderline).toBe(true);
      expect(find('Inverted')?.isReverse).toBe(true);
      expect(find('Big')).toMatchObject({ charScaleX: 2, charScaleY: 2 });
      // The encoder centres by padding with spaces itself.
      const c = find('Centered')!;
      expect(c.x + c.text.indexOf('Centered') * 12).toBe((576 - 8 * 12) / 2);
      expect(find('Größe: 12,50 €')).toBeDefined();
      expect(find('Привет мир')).toBeDefined();
      const imgs = images(job);
      const logo = imgs.find((i) => i.width === 64);
      expect(logo, 'logo image').toBeDefined();
      expect(logo!.height).toBeGreaterThanOrEqual(48);
      const lb = bitmapOf(logo!);
      expect(lb.get(0, 0) && lb.get(63, 47) && lb.get(1, 20)).toBe(true);
      expect(lb.get(30, 20)).toBe(false);
      expect(imgs.some((i) => qrText(i) === 'https://slipstream.example/r/42')).toBe(true);
      expect(imgs.length).toBeGreaterThanOrEqual(4);
      expect(texts(job, 1).some((e) => e.text.includes('Second receipt'))).toBe(true);
    });
  }
});

describe('node-thermal-printer', () => {
  it('buffer captured without a network', async () => {
    const { printer: ThermalPrinter, types: PrinterTypes, characterSet: CharacterSet } = require('node-thermal-printer');
    const p = new ThermalPrinter({ type: PrinterTypes.EPSON, characterSet: CharacterSet.PC858_EURO, width: 48 });
    p.alignCenter();
    p.setTextDoubleHeight();
    p.println('SHOP');
    p.setTextNormal();
    p.alignLeft();
    p.bold(true);
    p.println('Total 9,99 €');
    p.bold(false);
    p.leftRight('Left', 'Right');
    p.drawLine();
    p.printQR('QR-NTP', { cellSize: 4, correction: 'M', model: 2 });
    p.code128('CODE128-1', { width: 'SMALL', height: 80, text: 2 });
    p.openCashDrawer();
    p.cut();
    const data = new Uint8Array(p.getBuffer());
    const s = context();
    const job = run(data, s);
    const all = printedText(job);
    expect(all).toContain('SHOP');
    expect(all).toContain('Total 9,99 €');
    expect(texts(job).find((e) => e.text.includes('SHOP'))?.charScaleY).toBe(2);
    const imgs = images(job);
    expect(imgs.some((i) => qrText(i) === 'QR-NTP')).toBe(true);
    // The library sends GS H 0 (no HRI) and GS w 0, out of range: clamped to the narrowest
    // module without an error, as a printer accepts it silently (issue 13).
    expect(job.errorMessages.some((e) => e.includes('GS w'))).toBe(false);
    expect(job.canvases[0].items.some((e) => e.type === 'debug' && e.commandDescription[1] === 'Barcode module width 1 dots (0 clamped)')).toBe(true);
    const code = imgs.find((i) => i.commandDescription[1]?.includes('CODE128'));
    expect(code?.height).toBe(80);
    expect(job.canvases).toHaveLength(1);
  });
});

describe('escpos (node-escpos)', () => {
  it('Printer with a fake adapter', async () => {
    const escpos = require('escpos');
    const chunks: Buffer[] = [];
    const adapter = { write: (d: Buffer, cb?: (e?: Error) => void) => { chunks.push(Buffer.from(d)); cb?.(); }, open: (cb: () => void) => cb(), close: (cb?: () => void) => cb?.() };
    const printer = new escpos.Printer(adapter, { encoding: 'cp437' });
    printer
      .font('a').align('ct').style('bu').size(1, 1).text('ESCPOS HEADER')
      .style('normal').align('lt').text('Line two')
      .barcode('1234567', 'EAN8')
      .cashdraw(2)
      .cut();
    printer.flush();
    const data = new Uint8Array(Buffer.concat(chunks));
    const job = run(data);
    const all = printedText(job);
    expect(all).toContain('ESCPOS HEADER');
    expect(all).toContain('Line two');
    expect(images(job).length).toBeGreaterThanOrEqual(1);
    expect(job.canvases.length).toBe(1);
  });
});

describe('receiptline', () => {
  it('transform to escpos', () => {
    const receiptline = require('receiptline');
    const doc = '^^^RECEIPT\n\n|Item A | 1.00|\n|Item B | 2.50|\n---\n^TOTAL | ^3.50\n{code:https://receiptline.example; option:qrcode,4,L}\n{code:1234567890128; option:ean,hri}\n=\nAfter cut\n=\n';
    const out: string = receiptline.transform(doc, { command: 'escpos', cpl: 48, encoding: 'multilingual' });
    const data = Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
    const job = run(data);
    const all = printedText(job);
    expect(all).toContain('RECEIPT');
    expect(all).toContain('Item A');
    expect(all).toContain('TOTAL');
    expect(images(job).some((i) => qrText(i) === 'https://receiptline.example')).toBe(true);
    expect(all).toContain('1234567890128');
    expect(all).toContain('─'.repeat(48)); // rule drawn with Katakana page box characters
    // receiptline feeds a blank line and cuts again after the last "=": three pieces of paper.
    expect(job.canvases.length).toBe(3);
    expect(texts(job, 1).some((t) => t.text.includes('After cut'))).toBe(true);
    expect(texts(job, 2).every((t) => t.text.trim() === '')).toBe(true);
  });

  it('Japanese via receiptline shiftjis', () => {
    const receiptline = require('receiptline');
    const out: string = receiptline.transform('日本語テキスト\n', { command: 'escpos', cpl: 48, encoding: 'shiftjis' });
    const data = Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
    const job = run(data);
    expect(printedText(job).replace(/\n/g, '')).toContain('日本語テキスト');
  });
});
