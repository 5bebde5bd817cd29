import { BarcodeFormat } from '@zxing/library';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { jsqrDecode, zxingDecode } from '../raster/decode-helpers.ts';
import { all, bitmapOf, byteAccounting, images, printedLines, run, type Language } from './helpers.ts';
import { RECEIPT_CODES, RECEIPT_LINES, starReceipt, type EncoderLanguage } from './receipts.ts';

/**
 * The same receipt, made by receipt-printer-encoder in ESC/POS, StarPRNT and Star Line Mode,
 * prints the same: text line by line, images of the same size, codes that decode to their
 * data, the same number of canvases, and no error.
 */
const require = createRequire(import.meta.url);

const VARIANTS: { language: Language; encoder: EncoderLanguage; model?: string }[] = [
  { language: 'EscPos', encoder: 'esc-pos' },
  { language: 'StarPrnt', encoder: 'star-prnt', model: 'star-tsp100iv' },
  { language: 'StarPrnt', encoder: 'star-prnt', model: 'star-mc-print2' },
  { language: 'StarLine', encoder: 'star-line', model: 'star-tsp650ii' },
];

const TABLE_LINES = [
  'Espresso                                    2,50',
  'Croissant                                   1,90',
  'Total                                       4,40',
];

function printed(v: (typeof VARIANTS)[number]) {
  const data = starReceipt(v.encoder, v.model as never);
  const { job, out } = run(v.language, data, undefined, 7);
  return { data, job, out };
}

describe('one receipt from receipt-printer-encoder in esc-pos, star-prnt and star-line', () => {
  const results = VARIANTS.map((v) => ({ v, ...printed(v) }));
  const reference = results[0];

  for (const { v, data, job, out } of results) {
    describe(`${v.encoder}${v.model ? ` (${v.model})` : ''}`, () => {
      it('prints without errors, every byte accounted for', () => {
        expect(job.errorMessages).toEqual([]);
        expect(job.bytesReceived).toBe(data.length);
        expect(byteAccounting(job)).toBe(data.length);
      });

      it('prints the text line by line as the source has it (tables included), on two canvases', () => {
        const lines = printedLines(job);
        expect(lines).toHaveLength(2);
        expect(lines[0].map((l) => l.trim())).toEqual([...RECEIPT_LINES, ...TABLE_LINES].map((l) => l.trim()));
        expect(lines[0][5]).toBe(' '.repeat(20) + 'Centered');
        expect(lines[1]).toEqual(['Second receipt']);
        expect(lines).toEqual(printedLines(reference.job));
      });

      it('draws the image and the codes at the same sizes as the ESC/POS twin', () => {
        const sizes = (j: typeof job) => images(j.canvases[0].items).map((i) => `${i.width}x${i.height}`);
        expect(sizes(job)).toEqual(sizes(reference.job));
        const logo = images(job.canvases[0].items)[0];
        expect([logo.width, logo.height]).toEqual([64, 48]);
        const lb = bitmapOf(logo);
        expect(lb.get(0, 0) && lb.get(63, 47) && lb.get(1, 20)).toBe(true);
        expect(lb.get(30, 20)).toBe(false);
      });

      it('prints codes that decode to their data', () => {
        const [, ean, code128, qr, pdf] = images(job.canvases[0].items).map(bitmapOf);
        expect(zxingDecode(ean, [BarcodeFormat.EAN_13], { scale: 2 }).text).toBe(RECEIPT_CODES.ean13);
        expect(zxingDecode(code128, [BarcodeFormat.CODE_128], { scale: 2 }).text).toBe(RECEIPT_CODES.code128);
        expect(jsqrDecode(qr)?.data).toBe(RECEIPT_CODES.qr);
        expect(zxingDecode(pdf, [BarcodeFormat.PDF_417], { scale: 2 }).text).toBe(RECEIPT_CODES.pdf417);
      });

      it('cuts twice and kicks drawer 1 once', () => {
        expect(job.canvases).toHaveLength(reference.job.canvases.length);
        expect(out.events.filter((e) => e.type === 'drawerKick')).toEqual([{ type: 'drawerKick', drawer: 1 }]);
        expect(out.replies).toEqual([]);
      });
    });
  }
});

describe('node-thermal-printer STAR', () => {
  function ntpReceipt(type: 'EPSON' | 'STAR'): Uint8Array {
    const { printer: ThermalPrinter, types } = require('node-thermal-printer');
    const p = new ThermalPrinter({ type: types[type], width: 48 });
    p.alignCenter();
    p.setTextDoubleHeight();
    p.println('SHOP');
    p.setTextNormal();
    p.alignLeft();
    p.bold(true);
    p.println('Total 9,99');
    p.bold(false);
    p.underline(true);
    p.println('Underlined');
    p.underline(false);
    p.invert(true);
    p.println('Inverted');
    p.invert(false);
    p.leftRight('Left', 'Right');
    p.drawLine();
    p.printQR('QR-NTP', { cellSize: 4, correction: 'M', model: 2 });
    p.code128('CODE128-1', { width: 'SMALL', height: 80, text: 2 });
    p.openCashDrawer();
    p.cut();
    return new Uint8Array(p.getBuffer());
  }

  it('prints the same text as the EPSON type, a Code128 that decodes, and kicks the drawer', () => {
    const star = run('StarLine', ntpReceipt('STAR'), undefined, 5);
    const epson = run('EscPos', ntpReceipt('EPSON'));
    const lines = printedLines(star.job);
    expect(lines).toHaveLength(1);
    const expected = ['SHOP', 'Total 9,99', 'Underlined', 'Inverted', 'Left' + ' '.repeat(39) + 'Right', '-'.repeat(48)];
    expect(printedLines(epson.job)[0].map((l) => l.trim())).toEqual(expected);
    // node-thermal-printer 4.x STAR printQR sends the data length and data without the
    // ESC GS y D 1 m header: a Star printer takes nL (0x06) and nH (0x00) for control bytes,
    // prints the data as text and has no QR data to print. Slipstream says so. Its Star
    // code128 asks for the characters under the bars (n2 = 2), its Epson one for none.
    expect(lines[0].map((l) => l.trim())).toEqual([...expected, 'QR-NTP', 'CODE128-1']);
    expect(star.job.errorMessages).toEqual([
      'Unknown command 0x06 at byte 182: unknown control byte 0x06',
      'Unknown command NUL at byte 183: unknown control byte 0x00',
      expect.stringContaining('QR Code: no data stored'),
    ]);
    const [code] = images(star.job.canvases[0].items).map(bitmapOf);
    expect(zxingDecode(code, [BarcodeFormat.CODE_128], { scale: 2 }).text).toBe('CODE128-1');
    expect(star.out.events).toEqual([{ type: 'drawerKick', drawer: 1 }]);
  });
});

describe('receipt-printer-encoder star-prnt without a cut', () => {
  it('ends with its flush (ESC GS P 0, ESC GS P 1): everything prints, nothing is an error', async () => {
    const { default: ReceiptPrinterEncoder } = await import('@point-of-sale/receipt-printer-encoder');
    const data = new ReceiptPrinterEncoder({ language: 'star-prnt', printerModel: 'star-tsp100iv', columns: 48 })
      .initialize().line('First').bold(true).text('Last, no line feed').encode();
    expect(Buffer.from(data).includes(Buffer.from([0x1b, 0x1d, 0x50, 0x30, 0x1b, 0x1d, 0x50, 0x31]))).toBe(true);
    const { job } = run('StarPrnt', data);
    expect(job.errorMessages).toEqual([]);
    expect(printedLines(job)).toEqual([['First', 'Last, no line feed']]);
  });
});

describe('receiptline (starsbcs, starlinesbcs) against its escpos twin', () => {
  const DOC = `^^^RECEIPT
Espresso | 2.50
Croissant | 1.90
---
^TOTAL | ^4.40
{code:4006381333931; option:ean,hri}
{code:https://slipstream.example/rl; option:qrcode,6,m}
=`;
  const transform = (command: string): Uint8Array => {
    const receiptline = require('receiptline');
    return Uint8Array.from(receiptline.transform(DOC, { command, cpl: 48, encoding: 'cp437' }) as string, (c) => c.charCodeAt(0));
  };
  const escpos = run('EscPos', transform('escpos')).job;

  for (const [command, language] of [['starsbcs', 'StarPrnt'], ['starlinesbcs', 'StarLine']] as const) {
    it(`${command}: the same lines as escpos, codes that decode, no errors`, () => {
      const data = transform(command);
      const { job } = run(language, data, undefined, 11);
      expect(job.errorMessages).toEqual([]);
      expect(byteAccounting(job)).toBe(data.length);
      expect(printedLines(job).flat().map((l) => l.replace(/\s+/g, ' ').trim())).toEqual(printedLines(escpos).flat().map((l) => l.replace(/\s+/g, ' ').trim()));
      expect(printedLines(job).flat()).toContain('4006381333931');
      const bitmaps = images(all(job)).map(bitmapOf);
      expect(bitmaps.some((b) => jsqrDecode(b)?.data === 'https://slipstream.example/rl')).toBe(true);
      expect(bitmaps.some((b) => { try { return zxingDecode(b, [BarcodeFormat.EAN_13], { scale: 2 }).text === '4006381333931'; } catch { return false; } })).toBe(true);
    });
  }
});
