/**
 * The ZPL bar codes that neither @zxing/library nor zxing-cpp reads, checked against oracles
 * nobody here wrote (barcodes.test.ts has the ones ZXing decodes):
 *
 * - Quagga2 (@ericblade/quagga2), a bar code reader: decodes our Industrial (^BI) and
 *   Standard (^BJ) 2 of 5 back to the field data.
 * - zint (Debian's libzint, an encoder sharing no code with bwip-js): our bars, read from our
 *   PNG, are the modules zint encodes for the same data and check digits: Code 11 (^B1), MSI
 *   (^BM), Plessey (^BP), Industrial 2 of 5, POSTNET / PLANET / USPS Intelligent Mail (^BZ,
 *   bar by bar: full, ascender, descender, tracker), Code 49 (^B4) and CODABLOCK F (^BB), row
 *   by row.
 * - JsBarcode (npm), a second encoder for MSI: its four check digit schemes and the
 *   interpretation line with the check digit.
 *
 * Two-width symbologies are compared as their sequence of narrow and wide elements, so the
 * encoders' own wide-to-narrow ratios (zint 2:1, ours the ^BY ratio) do not matter.
 */
import Quagga from '@ericblade/quagga2';
import { encode } from 'fast-png';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { zintRows } from '../../support/zint.ts';
import { bitmapOf, images, texts, zpl } from './helpers.ts';

const MODULE = 2;

function symbol(fields: string) {
  const { job } = zpl(`^XA^BY${MODULE}^FO40,40${fields}^FS^XZ`);
  expect(job.errorMessages).toEqual([]);
  const c = job.canvases[0];
  const [img] = images(c);
  return { img, bmp: bitmapOf(img), texts: texts(c).map((t) => t.text) };
}

/** The pixel rows of a bitmap as '1'/'0' strings, runs of identical rows kept once. */
function distinctRows(bmp: Bitmap): string[] {
  const rows: string[] = [];
  for (let y = 0; y < bmp.height; y++) {
    let s = '';
    for (let x = 0; x < bmp.width; x++) s += bmp.get(x, y) ? '1' : '0';
    if (rows[rows.length - 1] !== s) rows.push(s);
  }
  return rows;
}

/** Heights of the bands of identical pixel rows, top to bottom. */
function bandHeights(bmp: Bitmap): number[] {
  const heights: number[] = [];
  let prev = '';
  for (let y = 0; y < bmp.height; y++) {
    let s = '';
    for (let x = 0; x < bmp.width; x++) s += bmp.get(x, y) ? '1' : '0';
    if (s === prev) heights[heights.length - 1]++;
    else heights.push(1);
    prev = s;
  }
  return heights;
}

/** Bar and space widths along a row, from the first bar to the last. */
const runs = (row: string): number[] => (row.replace(/^0+|0+$/g, '').match(/1+|0+/g) ?? []).map((r) => r.length);

/** 'n' and 'W' for each element of a two-width row: wide is at least 1.5 narrow. */
function narrowWide(row: string): string {
  const r = runs(row);
  const narrow = Math.min(...r);
  return r.map((v) => (v >= 1.5 * narrow ? 'W' : 'n')).join('');
}

/** Plessey carries its bits in the bars alone (wide bar 1, narrow bar 0); the spaces fill the pitch. */
function barBits(row: string): string {
  const bars = runs(row).filter((_, i) => i % 2 === 0);
  const narrow = Math.min(...bars);
  return bars.map((v) => (v >= 1.5 * narrow ? '1' : '0')).join('');
}

/**
 * Each bar of a height-modulated postal code: F full, A ascender (reaches the top only), D
 * descender (the bottom only), T tracker (neither). POSTNET / PLANET bars are F or D.
 */
function postalBars(rows: string[]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const dark = (x: number) => rows.some((r) => r[x] === '1');
  let out = '';
  for (let x = 0; x < width; x++) {
    if (!dark(x) || (x > 0 && dark(x - 1))) continue;
    const top = rows[0][x] === '1', bottom = rows[rows.length - 1][x] === '1';
    out += top && bottom ? 'F' : top ? 'A' : bottom ? 'D' : 'T';
  }
  return out;
}

/** The data rows of a stacked symbol (separator rows have few elements), in modules. */
function stackedRows(rows: string[], module: number): string[] {
  return rows.filter((r) => runs(r).length > 15).map((r) => runs(r).map((v) => v / module).join(','));
}

/** Decode with Quagga2 from a PNG (the bars with a quiet zone), the way its Node build reads a file. */
async function quagga(bmp: Bitmap, reader: '2of5_reader'): Promise<string | null> {
  const pad = 40, width = bmp.width + 2 * pad, height = bmp.height + 2 * pad;
  const data = new Uint8Array(width * height * 3).fill(255);
  for (let y = 0; y < bmp.height; y++) for (let x = 0; x < bmp.width; x++) {
    if (bmp.get(x, y)) data.fill(0, ((y + pad) * width + x + pad) * 3, ((y + pad) * width + x + pad) * 3 + 3);
  }
  const png = Buffer.from(encode({ width, height, data, channels: 3, depth: 8 }));
  const result = await Quagga.decodeSingle({
    src: `data:image/png;base64,${png.toString('base64')}`,
    numOfWorkers: 0,
    locate: false,
    inputStream: { size: width },
    decoder: { readers: [reader] },
  });
  return result?.codeResult?.code ?? null;
}

describe('2 of 5 (non-interleaved): Quagga2 decodes it, zint encodes the same bars', () => {
  for (const command of ['^BIN,60,Y,N', '^BJN,60,Y,N']) {
    for (const data of ['123456', '0987654321']) {
      it(`${command} ${data}`, async () => {
        const s = symbol(`${command}^FD${data}`);
        expect(await quagga(s.bmp, '2of5_reader')).toBe(data);
        expect(narrowWide(distinctRows(s.bmp)[0])).toBe(narrowWide(zintRows('C25IND', data)[0]));
        expect(s.texts).toEqual([data]);
      });
    }
  }
});

describe('Code 11 (^B1): the bars zint encodes, one check digit (e=Y) or two (e=N)', () => {
  const cases: Array<[string, string, string[]]> = [
    ['^B1N,N,60,Y,N', '123456', []],
    ['^B1N,Y,60,Y,N', '123456', ['--vers=1']],
    ['^B1N,N,60,Y,N', '12-34567890123', []],
    ['^B1N,Y,60,Y,N', '12-34567890123', ['--vers=1']],
    // Two check digits even for short data (bwip-js alone would add one below ten characters).
    ['^B1N,,60,Y,N', '7', []],
  ];
  for (const [command, data, zintArgs] of cases) {
    it(`${command} ${data}`, () => {
      const s = symbol(`${command}^FD${data}`);
      expect(narrowWide(distinctRows(s.bmp)[0])).toBe(narrowWide(zintRows('CODE11', data, zintArgs)[0]));
    });
  }
});

describe('MSI (^BM): zint and JsBarcode encode the same bars for each check digit scheme', () => {
  const require = createRequire(import.meta.url);
  type JsEncoder = new (data: string, options: object) => { encode(): { data: string; text: string } };
  const jsbarcode = (require('jsbarcode/bin/barcodes') as { default: Record<string, JsEncoder> }).default;
  // ZPL e: A none, B mod 10, C mod 10 twice, D mod 11 then mod 10.
  const cases: Array<[string, string, string]> = [['A', 'MSI', ''], ['B', 'MSI10', '--vers=1'], ['C', 'MSI1010', '--vers=2'], ['D', 'MSI1110', '--vers=4']];
  for (const [check, js, zintVers] of cases) {
    for (const data of ['123456', '80523']) {
      it(`^BMN,${check} ${data}`, () => {
        const s = symbol(`^BMN,${check},60,Y,N,Y^FD${data}`);
        const ours = narrowWide(distinctRows(s.bmp)[0]);
        expect(ours).toBe(narrowWide(zintRows('MSI_PLESSEY', data, zintVers ? [zintVers] : [])[0]));
        const theirs = new jsbarcode[js](data, {}).encode();
        expect(ours).toBe(narrowWide(theirs.data));
        // The interpretation line with the check digits (the sixth parameter is Y).
        expect(s.texts).toEqual([theirs.text]);
      });
    }
  }
  it('the check digit stays out of the interpretation line unless asked', () => {
    expect(symbol('^BMN,B,60,Y,N,N^FD123456').texts).toEqual(['123456']);
  });
});

describe('Plessey (^BP): the bits zint encodes, CRC included', () => {
  for (const data of ['12345', '9C0FFEE']) {
    it(data, () => {
      const s = symbol(`^BPN,N,60,Y,N^FD${data}`);
      const bits = barBits(zintRows('PLESSEY', data)[0]);
      expect(barBits(distinctRows(s.bmp)[0])).toBe(bits);
      expect(s.texts).toEqual([data]);
      // e=Y prints the CRC zint encodes (after the 4 start bits and 4 bits a character, least
      // significant first) as two hex characters.
      const crc = bits.slice(4 + 4 * data.length, 12 + 4 * data.length);
      const hex = [crc.slice(0, 4), crc.slice(4)].map((n) => parseInt([...n].reverse().join(''), 2).toString(16).toUpperCase()).join('');
      expect(symbol(`^BPN,Y,60,Y,N^FD${data}`).texts).toEqual([data + hex]);
    });
  }
});

describe('postal codes (^BZ): each bar as zint encodes it', () => {
  const cases: Array<[string, string, 'POSTNET' | 'PLANET' | 'USPS_IMAIL', string]> = [
    ['0', '12345', 'POSTNET', '12345'],
    ['0', '123456789', 'POSTNET', '123456789'],
    ['0', '12345678901', 'POSTNET', '12345678901'],
    ['1', '12345678901', 'PLANET', '12345678901'],
    ['1', '4012345678901', 'PLANET', '4012345678901'],
    ['B5', '12345678901', 'PLANET', '12345678901'],
    // Intelligent Mail: the 20-digit tracking code, then a routing code of 0, 5, 9 or 11 digits.
    ['3', '01234567094987654321', 'USPS_IMAIL', '01234567094987654321'],
    ['3', '0123456709498765432101234', 'USPS_IMAIL', '01234567094987654321-01234'],
    ['3', '0123456709498765432101234567891', 'USPS_IMAIL', '01234567094987654321-01234567891'],
  ];
  for (const [type, data, zint, zintData] of cases) {
    it(`${type === 'B5' ? '^B5' : `^BZ type ${type}`} ${data}`, () => {
      // ^B5 is PLANET on its own command.
      const s = symbol(type === 'B5' ? `^B5N,40,N^FD${data}` : `^BZN,40,N,N,${type}^FD${data}`);
      const ours = postalBars(distinctRows(s.bmp));
      expect(ours).toBe(postalBars(zintRows(zint, zintData)));
      // 65 bars; POSTNET / PLANET: five per digit and the check digit, and the two frame bars.
      expect(ours.length).toBe(zint === 'USPS_IMAIL' ? 65 : (data.length + 1) * 5 + 2);
    });
  }
});

describe('stacked symbols: every row has the modules zint encodes', () => {
  it('^B4 Code 49: rows h x the module high, one-module separator bars', () => {
    for (const data of ['12345ABC', 'Code 49: mixed case, 0123456789']) {
      const s = symbol(`^B4N,20,N,A^FD${data}`);
      const rows = zintRows('CODE49', data);
      expect(stackedRows(distinctRows(s.bmp), MODULE)).toEqual(rows.map((r) => runs(r).join(',')));
      // Separator, row, separator, ... row, separator.
      expect(bandHeights(s.bmp)).toEqual([MODULE, ...rows.flatMap(() => [20 * MODULE, MODULE])]);
      expect(s.texts).toEqual([]);
    }
    expect(symbol('^B4N,5,B^FDSHORT').texts).toEqual(['SHORT']);
  });

  it('^BB CODABLOCK F with c characters per row', () => {
    // zint counts a row's columns with its five overhead characters (start, row indicator,
    // row check, stop...), ZPL counts data characters.
    for (const [columns, data] of [[10, 'CODABLOCK TEST 123 abc'], [20, 'Stacked Code 128 rows, 0123456789 / ABC']] as const) {
      const s = symbol(`^BBN,10,Y,${columns}^FD${data}`);
      const ours = stackedRows(distinctRows(s.bmp), MODULE);
      const rows = zintRows('CODABLOCKF', data, [`--cols=${columns + 5}`]);
      expect(ours.length).toBeGreaterThan(1);
      expect(ours).toEqual(rows.map((r) => runs(r).join(',')));
      // Each row h x the module high, the separator bars one module.
      expect(bandHeights(s.bmp)).toEqual([MODULE, ...rows.flatMap(() => [10 * MODULE, MODULE])]);
    }
  });
});
