/**
 * node-thermal-printer receipts (buffers captured without a network), one per character set
 * the library encodes correctly, printed by a printer of a model that has that table.
 */
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type { MultiByteEncoding } from '../../../src/engines/models/index.ts';
import { cellCount } from '../../../src/engines/text/index.ts';
import { printedLines, runJob, textElements } from './run-job.ts';
import { decodedCodes } from './decode-codes.ts';
import { itCase, itWhenQuiet } from './wiring.ts';

const require = createRequire(import.meta.url);
const { printer: ThermalPrinter, types: PrinterTypes } = require('node-thermal-printer');

interface Case {
  characterSet: string;
  text: string;
  model: string;
  multiByteEncoding?: MultiByteEncoding;
  needsModels?: string;
}

/**
 * PC851_GREEK is left out: the library encodes it with iconv's CP860 (its own bug), so no
 * printer could print it. JAPAN sends EUC-JP, which no ESC/POS unit decodes.
 */
const CASES: Case[] = [
  { characterSet: 'PC858_EURO', text: 'Grüße aus Köln 12,50 €', model: 'epson-tm-t88vi' },
  { characterSet: 'PC866_CYRILLIC2', text: 'Доброе утро, Москва', model: 'epson-tm-t88vi' },
  { characterSet: 'PC852_LATIN2', text: 'Zażółć gęślą jaźń', model: 'epson-tm-t20iii' },
  { characterSet: 'PC857_TURKISH', text: 'Günaydın İstanbul şğı', model: 'epson-tm-m30iii' },
  { characterSet: 'PC737_GREEK', text: 'Καλημέρα κόσμε', model: 'epson-tm-t88vi' },
  { characterSet: 'WPC1253_GREEK', text: 'Καλημέρα κόσμε', model: 'epson-tm-t88vi' },
  { characterSet: 'WPC1251_CYRILLIC', text: 'Доброе утро', model: 'epson-tm-t88vi' },
  { characterSet: 'WPC1252', text: 'Œuvre « été » – 5 €', model: 'epson-tm-t88vi' },
  {
    characterSet: 'TIS11_THAI', text: 'สวัสดีครับ ขอบคุณ', model: 'epson-tm-t88vi',
    needsModels: 'Thai vowels and tone marks must print in the base cell: the line is as wide as its cells',
  },
  { characterSet: 'CHINA', text: '欢迎光临 合计 128.00', model: 'xprinter-xp-n160ii', multiByteEncoding: 'Gb18030' },
  { characterSet: 'KOREA', text: '감사합니다 합계', model: 'bixolon-srp350iii', multiByteEncoding: 'KsC5601' },
  { characterSet: 'HK_TW', text: '歡迎光臨 合計', model: 'xprinter-xp-n160ii', multiByteEncoding: 'Big5' },
];

function receipt(characterSet: string, text: string): Uint8Array {
  const p = new ThermalPrinter({ type: PrinterTypes.EPSON, characterSet, width: 42 });
  p.alignLeft();
  p.println(text);
  p.bold(true);
  p.println('TOTAL 42.00');
  p.bold(false);
  p.cut();
  return new Uint8Array(p.getBuffer());
}

describe('node-thermal-printer', () => {
  for (const c of CASES) {
    itCase(Boolean(c.needsModels))(`${c.characterSet} on ${c.model}: "${c.text}"`, () => {
      const job = runJob(receipt(c.characterSet, c.text), c.model, { multiByteEncoding: c.multiByteEncoding });
      expect(job.errorMessages).toEqual([]);
      expect(printedLines(job)).toEqual([c.text, 'TOTAL 42.00']);
      // Each cell is one Font A cell wide (two for CJK): combining marks add no width.
      const first = textElements(job)[0];
      const lineWidth = textElements(job).filter((e) => e.y === first.y).reduce((n, e) => n + e.width, 0);
      const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff]/u;
      const units = [...c.text].reduce((n, ch) => n + (cellCount(ch) === 0 ? 0 : wide.test(ch) ? 2 : 1), 0);
      expect(lineWidth).toBe(units * 12);
    });
  }

  it('QR and CODE128 with the default module width decode to their data, with no error', () => {
    const p = new ThermalPrinter({ type: PrinterTypes.EPSON, width: 42 });
    p.printQR('QR-NTP-7', { cellSize: 4, correction: 'M', model: 2 });
    p.code128('CODE128-1', { height: 80, text: 2 });
    p.cut();
    const job = runJob(new Uint8Array(p.getBuffer()), 'epson-tm-t88vi');
    const codes = decodedCodes(job);
    expect(codes).toContain('QR-NTP-7');
    expect(codes).toContain('CODE128-1');
    expect(job.errorMessages).toEqual([]);
  });

  itWhenQuiet('QR and CODE128 with width "SMALL" as its README shows (it sends GS w 0) print with no error', () => {
    const p = new ThermalPrinter({ type: PrinterTypes.EPSON, width: 42 });
    p.printQR('QR-NTP-7', { cellSize: 4, correction: 'M', model: 2 });
    p.code128('CODE128-1', { width: 'SMALL', height: 80, text: 2 });
    p.cut();
    const job = runJob(new Uint8Array(p.getBuffer()), 'epson-tm-t88vi');
    const codes = decodedCodes(job);
    expect(codes).toContain('QR-NTP-7');
    expect(codes).toContain('CODE128-1');
    expect(job.errorMessages).toEqual([]);
  });
});
