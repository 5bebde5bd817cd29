/**
 * receiptline documents in every encoding receiptline offers, printed as ESC/POS and compared
 * cell by cell with receiptline's own SVG drawing of the same document (the oracle: which
 * character lands in which cell of which line).
 */
import { describe, expect } from 'vitest';
import { createRequire } from 'node:module';
import type { MultiByteEncoding } from '../../../src/engines/models/index.ts';
import { glyphLines, printedGlyphs, runJob, type Glyph } from './run-job.ts';
import { decodedCodes } from './decode-codes.ts';
import { svgGlyphs } from './receiptline-svg.ts';
import { itCase } from './wiring.ts';

const require = createRequire(import.meta.url);
const receiptline = require('receiptline') as { transform(doc: string, printer: Record<string, unknown>): string };

/** Box-drawing characters: receiptline's ESC/POS draws rules with them, its SVG with paths. */
const isRule = (g: Glyph) => /^[\u2500-\u257f]$/.test(g.cell);

interface Case {
  encoding: string;
  lines: string[];
  multiByteEncoding?: MultiByteEncoding;
  /** Needs the engines to read the model (see wiring.ts); why, for the report. */
  needsModels?: string;
}

const CASES: Case[] = [
  { encoding: 'cp437', lines: ['Café crème ½ £ ¥ ±', 'Straße | 12.50'] },
  { encoding: 'multilingual', lines: ['Grüße Zażółć', 'Доброе утро €', 'Ünlü | 9.99'] },
  { encoding: 'cp852', lines: ['Zażółć gęślą jaźń', 'Příliš žluťoučký | 7,00'] },
  { encoding: 'cp858', lines: ['Größe 12,50 €', 'Ærø Ñandú | 3,00'] },
  { encoding: 'cp860', lines: ['Ação São João', 'Preço | 4,50'] },
  { encoding: 'cp863', lines: ['Crème brûlée à Québec', 'Total | 8,25'] },
  { encoding: 'cp865', lines: ['Blåbær øl Æble', 'Sum | 1,00'] },
  { encoding: 'cp866', lines: ['Доброе утро, Москва', 'Итого | 100,00'] },
  { encoding: 'cp1252', lines: ['Größe 12,50 € – «ok»', 'Œuvre | 5,00'] },
  { encoding: 'cp932', lines: ['ご利用ありがとうございます', '合計 | 1,280'], multiByteEncoding: 'ShiftJis' },
  { encoding: 'shiftjis', lines: ['日本語テキスト', '小計 | 980'], multiByteEncoding: 'ShiftJis' },
  { encoding: 'cp936', lines: ['欢迎光临', '合计 | 128.00'], multiByteEncoding: 'Gb18030' },
  { encoding: 'gb18030', lines: ['谢谢惠顾', '找零 | 2.00'], multiByteEncoding: 'Gb18030' },
  { encoding: 'cp949', lines: ['감사합니다', '합계 | 12,800'], multiByteEncoding: 'KsC5601' },
  { encoding: 'ksc5601', lines: ['안녕하세요', '소계 | 9,900'], multiByteEncoding: 'KsC5601' },
  { encoding: 'cp950', lines: ['歡迎光臨', '合計 | 128'], multiByteEncoding: 'Big5' },
  { encoding: 'big5', lines: ['謝謝惠顧', '找零 | 2'], multiByteEncoding: 'Big5' },
  {
    encoding: 'tis620',
    lines: ['สวัสดีครับ', 'ขอบคุณที่ใช้บริการ | 50'],
    needsModels: 'Thai above/below vowels and tone marks must print in the base cell (today each takes a column), and the NUL receiptline puts after each cell must be ignored',
  },
];

/** The model receiptline's `escpos` command talks to: an 80 mm Epson at 203 dpi (48 columns). */
const MODEL = 'epson-tm-m30iii';

describe('receiptline: ESC/POS print equals receiptline’s SVG, cell by cell', () => {
  for (const c of CASES) {
    itCase(Boolean(c.needsModels))(`${c.encoding}: ${c.lines[0]}`, () => {
      const doc = `^^^RECEIPT\n${c.lines.join('\n')}\n---\n`;
      const printer = { cpl: 48, encoding: c.encoding, spacing: false };
      const svg = receiptline.transform(doc, printer);
      const escpos = receiptline.transform(doc, { ...printer, command: 'escpos' });
      const job = runJob(Uint8Array.from(escpos, (ch) => ch.charCodeAt(0) & 0xff), MODEL, { multiByteEncoding: c.multiByteEncoding });
      expect(job.errorMessages).toEqual([]);
      const expected = glyphLines(svgGlyphs(svg)).map((l) => l.map((g) => `${g.cell}@${g.centerX}`));
      const printed = glyphLines(printedGlyphs(job).filter((g) => !isRule(g))).map((l) => l.map((g) => `${g.cell}@${g.centerX}`)).filter((l) => l.length > 0);
      expect(expected.length).toBe(c.lines.length + 1);
      expect(printed).toEqual(expected);
    });
  }
});

describe('receiptline: a whole GB18030 receipt', () => {
  // Rules between the lines (receiptline sends FS C 0 before each, a Japanese printer's code
  // system switch) and a paper cut as the last line (its own cut then ends the job: two cuts).
  const doc = '^^^RECEIPT\n谢谢惠顾\n---\n找零 | 2.00\n欢迎再次光临\n---\n合计 | 128.00\n=';
  const printer = { cpl: 48, encoding: 'gb18030', spacing: false };
  const escpos = receiptline.transform(doc, { ...printer, command: 'escpos' });
  const bytes = Uint8Array.from(escpos, (ch) => ch.charCodeAt(0) & 0xff);

  itCase(false)('prints every Chinese line its SVG shows, after the rules too', () => {
    expect(escpos).toContain('\x1cC0');
    const job = runJob(bytes, MODEL, { multiByteEncoding: 'Gb18030' });
    expect(job.errorMessages).toEqual([]);
    const expected = glyphLines(svgGlyphs(receiptline.transform(doc, printer))).map((l) => l.map((g) => `${g.cell}@${g.centerX}`));
    const printed = glyphLines(printedGlyphs(job).filter((g) => !isRule(g) && g.cell.trim() !== '')).map((l) => l.map((g) => `${g.cell}@${g.centerX}`)).filter((l) => l.length > 0);
    expect(expected.map((l) => l.join(' '))).toEqual(expect.arrayContaining([expect.stringContaining('合@'), expect.stringContaining('欢@')]));
    expect(printed).toEqual(expected);
  });

  itCase(false)('its two cuts at the end make one receipt, no empty canvas', () => {
    const cuts = escpos.split('\x1dVB').length - 1;
    expect(cuts).toBe(2);
    const job = runJob(bytes, MODEL, { multiByteEncoding: 'Gb18030' });
    expect(job.canvases.every((c) => (c.heightInDots ?? 0) > 0)).toBe(true);
    expect(job.canvases.filter((c) => c.items.some((e) => e.type === 'text' && e.text.trim() !== ''))).toHaveLength(1);
  });

  itCase(false)('FS C still selects JIS on a Shift JIS printer', () => {
    // FS C 0, FS &, then 0x30 0x21 as JIS (亜) rather than two ASCII characters.
    const job = runJob(Uint8Array.from([0x1b, 0x40, 0x1c, 0x43, 0x00, 0x1c, 0x26, 0x30, 0x21, 0x0a]), MODEL, { multiByteEncoding: 'ShiftJis' });
    expect(printedGlyphs(job).map((g) => g.cell).join('')).toContain('亜');
  });
});

describe('receiptline: codes decode to their data', () => {
  itCase(false)('QR code and EAN-13 with human-readable text', () => {
    const doc = 'CODES\n{code:https://receiptline.example/r/7; option:qrcode,4,L}\n{code:4901234567894; option:ean,hri}\n';
    const escpos = receiptline.transform(doc, { cpl: 48, encoding: 'cp437', command: 'escpos' });
    const job = runJob(Uint8Array.from(escpos, (ch) => ch.charCodeAt(0) & 0xff), MODEL);
    expect(job.errorMessages).toEqual([]);
    const decoded = decodedCodes(job);
    expect(decoded).toContain('https://receiptline.example/r/7');
    expect(decoded).toContain('4901234567894');
  });
});
