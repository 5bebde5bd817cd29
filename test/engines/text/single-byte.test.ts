import { describe, expect, it } from 'vitest';
import CodepageEncoder from '@point-of-sale/codepage-encoder';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import iconv from 'iconv-lite';
import { cellCount, decodeSingleByte, describeTable, isSupportedTable, splitCells, supportedTables } from '../../../src/engines/text/index.ts';
import { codeTablesFor, getModel } from '../../../src/engines/models/index.ts';
import { escPosLines } from './encoder-output.ts';

describe('decodeSingleByte against @point-of-sale/codepage-encoder', () => {
  it('every table round-trips the package’s own test strings (encode there, decode here)', () => {
    let checked = 0;
    for (const table of CodepageEncoder.getEncodings()) {
      for (const { string } of CodepageEncoder.getTestStrings(table)) {
        if (typeof string !== 'string') continue; // a language the package has no sample for
        const bytes = CodepageEncoder.encode(string, table);
        // The package encodes what a table lacks as '?'; compare only strings the table holds whole.
        const decoded = decodeSingleByte(table, bytes);
        const representable = [...string].every((ch) => ch === '?' || CodepageEncoder.encode(ch, table)[0] !== 0x3f);
        if (representable) {
          expect(decoded, table).toBe(string);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('every character of every table decodes back from the byte the package encodes it to', () => {
    for (const table of supportedTables()) {
      for (let byte = 0x80; byte < 0x100; byte++) {
        const ch = decodeSingleByte(table, [byte]);
        // The package's encode() walks UTF-16 units, so astral glyphs (Star's block mosaics) cannot go through it.
        if (ch === '\ufffd' || ch.codePointAt(0)! > 0xffff) continue;
        // A glyph a table holds twice (cp775's ¶ at 0x14 and 0xF4) encodes to its first byte.
        expect(decodeSingleByte(table, CodepageEncoder.encode(ch, table as never)), `${table} 0x${byte.toString(16)} ${ch}`).toBe(ch);
      }
    }
  });

  it('agrees with iconv-lite where both know a table', () => {
    const pairs: [string, string][] = [['cp437', 'cp437'], ['cp850', 'cp850'], ['cp852', 'cp852'], ['cp866', 'cp866'], ['cp737', 'cp737'], ['cp857', 'cp857'], ['windows1252', 'windows-1252'], ['windows1251', 'windows-1251'], ['windows1250', 'windows-1250'], ['iso8859-7', 'iso-8859-7']];
    for (const [table, codec] of pairs) {
      for (let byte = 0xa0; byte < 0x100; byte++) {
        const ours = decodeSingleByte(table, [byte]);
        const theirs = iconv.decode(Buffer.from([byte]), codec);
        if (ours !== '\ufffd' && theirs !== '\ufffd' && !(table === 'cp857' && byte === 0xd5)) expect(ours, `${table} 0x${byte.toString(16)}`).toBe(theirs);
      }
    }
  });

  it('names unknown tables instead of guessing', () => {
    expect(isSupportedTable('cp851')).toBe(true);
    expect(isSupportedTable('cp853')).toBe(true);
    expect(isSupportedTable('cp9999')).toBe(false);
    expect(() => decodeSingleByte('cp9999', [0x41])).toThrow(/cp9999/);
    expect(describeTable('cp851')).toBe('cp851 (Greek)');
  });
});

describe('receipt-printer-encoder receipts decode through the model numbering', () => {
  const cases: { model: string; codepage: string; text: string }[] = [
    { model: 'epson-tm-t88vi', codepage: 'cp851', text: 'Καλημέρα κόσμε' },
    { model: 'epson-tm-t20iii', codepage: 'cp853', text: 'Günaydın İstanbul şğı' },
    { model: 'epson-tm-m30iii', codepage: 'cp857', text: 'Günaydın İstanbul şğı' },
    { model: 'epson-tm-p20ii', codepage: 'cp866', text: 'Доброе утро, Москва' },
    { model: 'epson-tm-t88vi', codepage: 'cp852', text: 'Zażółć gęślą jaźń' },
    { model: 'bixolon-srp350iii', codepage: 'cp866', text: 'Доброе утро' },
    { model: 'xprinter-xp-n160ii', codepage: 'windows1253', text: 'Καλημέρα' },
    { model: 'pos-5890', codepage: 'cp851', text: 'Καλημέρα' },
    { model: 'citizen-ct-s310ii', codepage: 'cp852', text: 'Zażółć gęślą jaźń' },
    { model: 'epson-tm-t88vi', codepage: 'windows1252', text: 'Größe: 12,50 € – «ok»' },
  ];
  for (const { model, codepage, text } of cases) {
    it(`${model} ${codepage}: "${text}"`, () => {
      const bytes = new ReceiptPrinterEncoder({ printerModel: model as never }).codepage(codepage as never).text(text).encode();
      const { lines, tablesUsed } = escPosLines(bytes, codeTablesFor(getModel(model)!, 'EscPos'));
      expect(tablesUsed).toContain(codepage);
      expect(lines.join('')).toBe(text);
    });
  }

  it('auto code page on an Epson: mixed scripts come back whole', () => {
    const text = 'Καλημέρα Доброе Zażółć Günaydın €';
    const bytes = new ReceiptPrinterEncoder({ printerModel: 'epson-tm-t88vi' }).codepage('auto').text(text).encode();
    expect(escPosLines(bytes, codeTablesFor(getModel('epson-tm-t88vi')!, 'EscPos')).lines.join('')).toBe(text);
  });
});

describe('Thai: marks print in the base cell', () => {
  // codepage-encoder's Thai Character Code 42 holds no MAI HAN-AKAT (U+0E31), so neither
  // receipt-printer-encoder nor we can print it there; its sample avoids that vowel.
  const samples: Record<string, string> = {
    thai42: 'ขอบคุณที่ใช้บริการ ราคา ๑๒๓ บาท',
    thai11: 'สวัสดีครับ ขอบคุณที่ใช้บริการ',
    thai18: 'สวัสดีครับ ขอบคุณที่ใช้บริการ',
    thai13: 'สวัสดีครับ ขอบคุณที่ใช้บริการ',
    cp874: 'สวัสดีครับ ขอบคุณที่ใช้บริการ',
  };
  for (const [table, text] of Object.entries(samples)) {
    it(`${table}: decodes and counts cells without the above/below vowels and tone marks`, () => {
      const bytes = CodepageEncoder.encode(text, table as never);
      const decoded = decodeSingleByte(table, bytes);
      expect(decoded).toBe(text);
      // ั ี ั ุ ี่ ใ... count base characters by Unicode's own category (Mn), not by our list.
      const marks = [...text].filter((c) => /\p{Mn}/u.test(c)).length;
      expect(marks).toBeGreaterThan(4);
      expect(cellCount(decoded)).toBe([...text].length - marks);
      expect(splitCells('ที่')).toEqual(['ที่']);
      expect(splitCells('สวัสดี')).toEqual(['ส', 'วั', 'ส', 'ดี']);
    });
  }
  it('receipt-printer-encoder on a Thai-capable Epson table', () => {
    const text = 'สวัสดีครับ';
    const bytes = new ReceiptPrinterEncoder({ printerModel: 'epson-tm-t88vi' }).codepage('thai11' as never).text(text).encode();
    const { lines } = escPosLines(bytes, codeTablesFor(getModel('epson-tm-t88vi')!, 'EscPos'));
    expect(lines.join('')).toBe(text);
    expect(cellCount(lines.join(''))).toBe(7);
  });
});
