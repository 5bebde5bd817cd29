/**
 * Receipts from the `escpos` package (node-escpos 2.x) with a capturing adapter. The package
 * encodes text with iconv and sends no code-table command, so the printer's own defaults
 * decide: PC437 on an Epson, GB18030 Kanji mode on a Chinese XPrinter unit.
 */
import { describe, expect, it } from 'vitest';
import { itWhenQuiet } from './wiring.ts';
import { createRequire } from 'node:module';
import type { MultiByteEncoding } from '../../../src/engines/models/index.ts';
import { printedLines, runJob } from './run-job.ts';
import { decodedCodes } from './decode-codes.ts';

const require = createRequire(import.meta.url);
const escpos = require('escpos');

function capture(encoding: string, build: (printer: any) => void): Uint8Array {
  const chunks: Buffer[] = [];
  const adapter = { write: (d: Buffer, cb?: (e?: Error) => void) => { chunks.push(Buffer.from(d)); cb?.(); }, open: (cb: () => void) => cb(), close: (cb?: () => void) => cb?.() };
  const printer = new escpos.Printer(adapter, { encoding });
  build(printer);
  printer.flush();
  return new Uint8Array(Buffer.concat(chunks));
}

describe('escpos package', () => {
  const cases: { encoding: string; model: string; multiByteEncoding?: MultiByteEncoding; lines: string[] }[] = [
    { encoding: 'cp437', model: 'epson-tm-t88vi', lines: ['Café crème ½ £', 'Straße 12.50'] },
    { encoding: 'GB18030', model: 'xprinter-xp-n160ii', multiByteEncoding: 'Gb18030', lines: ['欢迎光临', '合计：¥128.00', '谢谢惠顾'] },
    { encoding: 'Big5', model: 'xprinter-xp-n160ii', multiByteEncoding: 'Big5', lines: ['歡迎光臨', '合計 128 元'] },
    { encoding: 'EUC-KR', model: 'bixolon-srp350iii', multiByteEncoding: 'KsC5601', lines: ['감사합니다', '합계 12,800원'] },
  ];
  for (const c of cases) {
    it(`${c.encoding} on ${c.model}: text as sent, EAN-13 decodes, no errors`, () => {
      const data = capture(c.encoding, (p) => {
        p.font('a').align('lt');
        for (const line of c.lines) p.text(line);
        p.barcode('490123456789', 'EAN13');
        p.cut();
      });
      const job = runJob(data, c.model, { multiByteEncoding: c.multiByteEncoding });
      expect(job.errorMessages).toEqual([]);
      expect(printedLines(job).filter((l) => !/^\d{13}$/.test(l.replace(/\s/g, '')))).toEqual(c.lines);
      expect(decodedCodes(job)).toContain('4901234567894');
    });
  }

  itWhenQuiet('style("normal") (it sends ESC 5, italic off) prints with no error', () => {
    const data = capture('cp437', (p) => {
      p.style('bu').text('BOLD UNDERLINED');
      p.style('normal').text('Normal again');
      p.cut();
    });
    const job = runJob(data, 'epson-tm-t88vi');
    expect(printedLines(job)).toEqual(['BOLD UNDERLINED', 'Normal again']);
    expect(job.errorMessages).toEqual([]);
  });
});
