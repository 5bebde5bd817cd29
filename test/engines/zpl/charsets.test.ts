/**
 * ^CI character sets: bytes in → text elements with the characters a Zebra prints.
 *
 * Oracles: zpl-renderer-js (zebrash compiled to WebAssembly, an independent ZPL renderer)
 * draws a national set's bytes exactly as it draws the expected characters sent as UTF-8;
 * the ESC/POS international sets (ESC R) agree where both replace a position; Node's
 * WHATWG TextDecoder (ICU, not the iconv-lite tables the engine decodes with) is the
 * reference for the Asian encodings, and Unifont must hold a glyph for every character.
 */
import iconv from 'iconv-lite';
import { ready } from 'zpl-renderer-js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PrinterContext } from '../../../src/engines/canvas/printer-context.ts';
import { INTERNATIONAL_SETS } from '../../../src/engines/escpos/codepages.ts';
import { getModel, type MultiByteEncoding } from '../../../src/engines/models/index.ts';
import { PackedRaster, drawTextElement } from '../../../src/engines/render/index.ts';
import { sourceGlyph } from '../../../src/engines/render/glyphs/glyph-table.ts';
import { nationalReplacements } from '../../../src/engines/zpl/charsets.ts';
import { labelPrinterContext } from '../../support/printer-context.ts';
import { BarcodeFormat, bitmapOf, images, newZplPrinterMemory, texts, zpl, zxingDecode } from './helpers.ts';

const enc = new TextEncoder();
const bytes = (...parts: Array<string | number[]>): Uint8Array => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc.encode(p)] : p)));
const hexEscaped = (data: ArrayLike<number>): string => Array.from(data, (b) => `_${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');

/** The positions every national set may replace: 23h 40h 5Bh–5Eh 60h 7Bh–7Dh. */
const POSITIONS = [0x23, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d];

/** The text of the one text element a label with field data `data` (raw bytes) prints under `ci`. */
function printed(ci: string, data: Uint8Array | string, ctx?: PrinterContext): string {
  const { job } = zpl(bytes(`^XA${ci}^FO10,10^A0N,30,30^FD`, [...(typeof data === 'string' ? enc.encode(data) : data)], '^FS^XZ'), ctx ? { ctx } : {});
  expect(job.errorMessages).toEqual([]);
  const t = texts(job.canvases[0]);
  expect(t).toHaveLength(1);
  return t[0].text;
}

function expectRenderable(text: string): void {
  for (const ch of text) expect(sourceGlyph(ch.codePointAt(0)!), `glyph for U+${ch.codePointAt(0)!.toString(16)}`).not.toBeNull();
}

describe('national character sets ^CI0–^CI12', () => {
  let oracle: (zplText: string) => Promise<string>;
  beforeAll(async () => {
    const { api } = await ready;
    oracle = (text) => api.zplToBase64Async(text, 80, 20, 8);
  }, 60_000);

  for (let ci = 0; ci <= 12; ci++) {
    it(`^CI${ci} prints what zpl-renderer-js prints for the same bytes`, async () => {
      const ours = printed(`^CI${ci}^FH`, hexEscaped(POSITIONS));
      expect([...ours]).toHaveLength(POSITIONS.length);
      expectRenderable(ours);
      // The oracle draws the bytes under ^CI n and our characters sent as UTF-8 identically.
      // zebrash writes Holland's IJ ligatures as two letters.
      const expected = ours.replace('Ĳ', 'IJ').replace('ĳ', 'ij');
      const label = (ci2: string, data: string) => `^XA${ci2}^FO10,10^A0N,40,40^FH^FD${data}^FS^XZ`;
      const [theirs, reference] = await Promise.all([oracle(label(`^CI${ci}`, hexEscaped(POSITIONS))), oracle(label('^CI28', hexEscaped(enc.encode(expected))))]);
      expect(theirs).toBe(reference);
      // And a set other than U.S.A. 1/U.K./Japan really replaces something beyond 5Ch.
      if (![0, 2, 12].includes(ci)) expect(nationalReplacements(ci).size).toBeGreaterThan(2);
    }, 30_000);
  }

  it('agrees with the ESC/POS international sets (ESC R) wherever both replace a position', () => {
    // ZPL set → ESC R set of the same country.
    const pairs: Array<[number, number]> = [[2, 3], [4, 4], [5, 5], [6, 2], [9, 6], [10, 7], [12, 8]];
    const escPositions = [0x23, 0x24, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d, 0x7e];
    let compared = 0;
    for (const [zplSet, escSet] of pairs) {
      const esc = INTERNATIONAL_SETS.get(escSet)!.chars;
      for (const [pos, ch] of nationalReplacements(zplSet)) {
        const theirs = esc[escPositions.indexOf(pos)];
        if (theirs === String.fromCharCode(pos) || pos === 0x23) continue; // ESC R keeps it, or 23h differs by design (Zebra's Ü, £)
        expect(ch, `^CI${zplSet} ${pos.toString(16)}h vs ESC R ${escSet}`).toBe(theirs);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(25);
  });

  it('the power-up ^CI0 prints a backslash as ¢ (Zebra support note); ^CI13 prints the backslash', () => {
    expect(printed('', 'ABCD\\1234')).toBe('ABCD¢1234');
    expect(printed('^CI13', 'ABCD\\1234')).toBe('ABCD\\1234');
    expect(printed('^CI4', 'K[benhavn')).toBe('KÆbenhavn');
    expect(printed('^CI6', 'Gr|}e')).toBe('Gröüe');
  });

  it('a bar code encodes the bytes, not the national glyphs; \\& still breaks ^FB lines', () => {
    const { job } = zpl('^XA^CI4^BY2^FO20,20^BCN,80,N,N,N^FDAB[\\]^FS^FO20,150^FB400,3^A0N,30,30^FDK[ge\\&line 2^FS^XZ');
    expect(job.errorMessages).toEqual([]);
    const c = job.canvases[0];
    expect(zxingDecode(bitmapOf(images(c)[0]), [BarcodeFormat.CODE_128])?.text).toBe('AB[\\]');
    expect(texts(c).map((t) => t.text)).toEqual(['KÆge', 'line 2']);
  });

  it('^FN data recalled by ^XF: the bar code gets the bytes, the text field the national glyphs', () => {
    const memory = newZplPrinterMemory();
    zpl('^XA^DFR:SHIP.ZPL^FS^BY2^FO20,20^BCN,80,N,N,N^FN1^FS^FO20,150^A0N,30,30^FN1^FS^XZ', { memory });
    const { job } = zpl('^XA^XFR:SHIP.ZPL^FS^FN1^FDC:\\X^FS^XZ', { memory });
    expect(job.errorMessages).toEqual([]);
    const c = job.canvases[0];
    expect(zxingDecode(bitmapOf(images(c)[0]), [BarcodeFormat.CODE_128])?.text).toBe('C:\\X');
    expect(texts(c).map((t) => t.text)).toEqual(['C:¢X']);
  });

  it('remapping pairs apply on top of a national set', () => {
    expect(printed('^CI4,91,33', '![')).toBe('ÆÆ');
  });
});

describe('Asian and 16-bit sets', () => {
  const icu = (label: string, data: Uint8Array) => new TextDecoder(label).decode(data);
  const ctxWith = (multiByteEncoding: MultiByteEncoding): PrinterContext => labelPrinterContext({ model: getModel('zebra-zd421-203')!, multiByteEncoding });

  it('^CI15 is Shift-JIS', () => {
    const data = iconv.encode('ラベル印刷 ｶﾀｶﾅ ABC', 'shift_jis');
    const text = printed('^CI15', data);
    expect(text).toBe(icu('shift_jis', data));
    expect(text).toBe('ラベル印刷 ｶﾀｶﾅ ABC');
    expectRenderable(text);
  });

  it('^CI16 is EUC-JP, or EUC-CN on a printer whose multi-byte encoding is GB 18030', () => {
    const jp = iconv.encode('日本語のラベル', 'euc-jp');
    expect(printed('^CI16', jp)).toBe(icu('euc-jp', jp));
    expect(printed('^CI16', jp)).toBe('日本語のラベル');
    const cn = iconv.encode('简体中文标签', 'gb2312');
    expect(printed('^CI16', cn, ctxWith('Gb18030'))).toBe(icu('gb18030', cn));
    expect(printed('^CI16', cn, ctxWith('Gb18030'))).toBe('简体中文标签');
  });

  it('^CI14 and ^CI17 are 16-bit Unicode, big-endian', () => {
    const data = Uint8Array.from([0x65, 0xe5, 0x67, 0x2c, 0x00, 0x41, 0x00, 0x31]);
    expect(printed('^CI14', data)).toBe('日本A1');
    expect(printed('^CI17', data)).toBe(icu('utf-16be', data));
  });

  it('^CI17 takes UTF-8 after ^F8 (as ZebraDesigner sends it) and UTF-16 after ^F16', () => {
    const { job } = zpl(bytes('^XA^FO10,10^A0N,30,30^FH\\^CI17^F8^FDGrüße 日本^FS^CI0^FO10,60^A0N,30,30^CI17^F16^FD', [0x65, 0xe5, 0x00, 0x21], '^FS^XZ'));
    expect(job.errorMessages).toEqual([]);
    expect(texts(job.canvases[0]).map((t) => t.text)).toEqual(['Grüße 日本', '日!']);
    expect(zpl('^XA^F17^XZ').job.errorMessages.join()).toMatch(/\^F17 is not a command/);
  });

  it('^CI24 gives byte n the Unicode character n', () => {
    const data = Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0xb5, 0xff]);
    expect(printed('^CI24', data)).toBe('Café µÿ');
  });

  it('^CI26 keeps ASCII single-byte and decodes the printer’s Asian encoding (GB 18030 by default, four-byte form included)', () => {
    const mixed = 'Order 42: 中文 ✓ 😀';
    const gb = iconv.encode(mixed, 'gb18030');
    expect(gb.length).toBeGreaterThan(enc.encode('Order 42: ').length + 4 + 4); // ✓ and 😀 take four bytes
    expect(printed('^CI26', gb)).toBe(icu('gb18030', gb));
    expect(printed('^CI26', gb)).toBe(mixed);
    const cases: Array<[MultiByteEncoding, string, string, string]> = [
      ['Big5', 'big5', 'big5', '繁體中文 No.7'],
      ['KsC5601', 'euc-kr', 'euc-kr', '한국어 라벨 7'],
      ['ShiftJis', 'shift_jis', 'shift_jis', '出荷ラベル 7'],
    ];
    for (const [setting, codec, whatwg, text] of cases) {
      const data = iconv.encode(text, codec);
      const out = printed('^CI26', data, ctxWith(setting));
      expect(out, setting).toBe(icu(whatwg, data));
      expect(out, setting).toBe(text);
      expectRenderable(out.replace(/\s/g, ''));
    }
  });

  it('CJK text elements draw with ink for every character', () => {
    const { job } = zpl(bytes('^XA^CI15^FO10,10^A0N,40,40^FD', [...iconv.encode('配送ラベル', 'shift_jis')], '^FS^XZ'));
    const [t] = texts(job.canvases[0]);
    const page = new PackedRaster(400, 100);
    drawTextElement(page, t);
    let ink = 0;
    for (let y = 0; y < 100; y++) for (let x = 0; x < 400; x++) if (page.get(x, y)) ink++;
    expect(ink).toBeGreaterThan(5 * 40);
  });

  it('remapping pairs do not apply to a multi-byte set, and say so', () => {
    const { job } = zpl('^XA^CI28,36,33^FO10,10^A0N,30,30^FDPrice 5!^FS^XZ');
    expect(texts(job.canvases[0])[0].text).toBe('Price 5!');
    expect(job.errorMessages.join()).toMatch(/remapping pairs? (is|are) ignored/);
  });
});
