import { describe, expect, it } from 'vitest';
import { BarcodeFormat } from '@zxing/library';
import { renderLinearBarcode, type LinearBarcodeRequest, type RenderedBarcode } from '../../../src/engines/raster/barcode.ts';
import { runs, zxingDecode } from './decode-helpers.ts';

function render(req: Partial<LinearBarcodeRequest> & { bcid: string; text: string }): RenderedBarcode {
  const r = renderLinearBarcode({ moduleWidth: 2, height: 60, ...req });
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** Bars and spaces of the first row in dots, from the first bar to the last. */
function widths(v: RenderedBarcode, y = 0): number[] {
  return runs(v.bitmap, y).map((r) => r.width);
}

describe('renderLinearBarcode: decodes with zxing', () => {
  const cases: [string, string, BarcodeFormat, string, string, Partial<LinearBarcodeRequest>?][] = [
    // bcid, text, format, expected decoded text, expected human readable
    ['ean13', '590123412345', BarcodeFormat.EAN_13, '5901234123457', '5901234123457'],
    ['ean13', '5901234123457', BarcodeFormat.EAN_13, '5901234123457', '5901234123457'],
    ['ean8', '9638507', BarcodeFormat.EAN_8, '96385074', '96385074'],
    ['upca', '03600029145', BarcodeFormat.UPC_A, '036000291452', '036000291452'],
    ['code128', 'Hello World 123', BarcodeFormat.CODE_128, 'Hello World 123', 'Hello World 123'],
    ['code128', 'Ab1\u00e9', BarcodeFormat.CODE_128, 'Ab1\u00e9', 'Ab1\u00e9'],
    ['code39', 'ABC-123', BarcodeFormat.CODE_39, 'ABC-123', '*ABC-123*'],
    ['code39', 'ABC-123', BarcodeFormat.CODE_39, 'ABC-123', '*ABC-123*', { wideRatio: 2 }],
    ['code39', 'CODE 39 $/+%', BarcodeFormat.CODE_39, 'CODE 39 $/+%', '*CODE 39 $/+%*', { wideRatio: 2.5, moduleWidth: 1 }],
    ['code93', 'ABC-123', BarcodeFormat.CODE_93, 'ABC-123', 'ABC-123'],
    ['interleaved2of5', '12345678', BarcodeFormat.ITF, '12345678', '12345678'],
    ['interleaved2of5', '1234567890', BarcodeFormat.ITF, '1234567890', '1234567890', { wideRatio: 2.5 }],
    ['itf14', '1234567890123', BarcodeFormat.ITF, '12345678901231', '12345678901231'],
    ['rationalizedCodabar', 'A1234B', BarcodeFormat.CODABAR, 'A1234B', 'A1234B'],
    ['rationalizedCodabar', 'C40156D', BarcodeFormat.CODABAR, 'C40156D', 'C40156D', { wideRatio: 2 }],
    ['databaromni', '(01)09501101530003', BarcodeFormat.RSS_14, '09501101530003', '(01)09501101530003'],
  ];
  for (const [bcid, text, format, decoded, hr, extra] of cases) {
    it(`${bcid} ${JSON.stringify(text)} ${extra ? JSON.stringify(extra) : ''}`, () => {
      const v = render({ bcid, text, ...extra });
      expect(v.humanReadable).toBe(hr);
      expect(zxingDecode(v.bitmap, [format]).text).toBe(decoded);
    });
  }

  it('gs1-128 carries FNC1 and the AIs', () => {
    const v = render({ bcid: 'gs1-128', text: '(01)09501101530003(10)ABC123' });
    expect(v.humanReadable).toBe('(01)09501101530003(10)ABC123');
    // zxing reports the GS1 symbology identifier for a leading FNC1; the variable-length AI is
    // last so no group separator follows it.
    expect(zxingDecode(v.bitmap, [BarcodeFormat.CODE_128], { gs1: true }).text).toBe(']C1010950110153000310ABC123');
  });

  it('code128 with parsefnc FNC1 in first position is GS1', () => {
    const v = render({ bcid: 'code128', text: '^FNC10109501101530003', options: { parsefnc: true } });
    expect(zxingDecode(v.bitmap, [BarcodeFormat.CODE_128], { gs1: true }).text).toBe(']C10109501101530003');
  });

  it('plain code128 of the same digits has no FNC1 (control for the GS1 checks)', () => {
    const v = render({ bcid: 'code128', text: '0109501101530003' });
    expect(zxingDecode(v.bitmap, [BarcodeFormat.CODE_128], { gs1: true }).text).toBe('0109501101530003');
  });

  it('decodes at module width 1 and 3', () => {
    for (const moduleWidth of [1, 3]) {
      const v = render({ bcid: 'code128', text: 'SLIP-0042', moduleWidth });
      expect(zxingDecode(v.bitmap, [BarcodeFormat.CODE_128], { scale: moduleWidth === 1 ? 2 : 1 }).text).toBe('SLIP-0042');
    }
  });
});

describe('renderLinearBarcode: exact geometry in dots', () => {
  it('EAN-13 is 95 modules wide, every bar full height, no quiet zone', () => {
    for (const mw of [1, 2, 3, 4]) {
      const v = render({ bcid: 'ean13', text: '590123412345', moduleWidth: mw, height: 37 });
      expect(v.bitmap.width).toBe(95 * mw);
      expect(v.bitmap.height).toBe(37);
      // First and last columns are the guard bars.
      expect(v.bitmap.get(0, 0)).toBe(true);
      expect(v.bitmap.get(95 * mw - 1, 36)).toBe(true);
      // Every row is identical (no text, no guard extension).
      const first = Array.from(v.bitmap.pixels.subarray(0, v.bitmap.width));
      for (let y = 1; y < v.bitmap.height; y++) {
        expect(Array.from(v.bitmap.pixels.subarray(y * v.bitmap.width, (y + 1) * v.bitmap.width))).toEqual(first);
      }
      // All elements are multiples of the module width, 1 to 4 modules.
      for (const w of widths(v)) {
        expect(w % mw).toBe(0);
        expect(w / mw).toBeGreaterThanOrEqual(1);
        expect(w / mw).toBeLessThanOrEqual(4);
      }
    }
  });

  it('EAN-13 bars match the standard encoding (start guard, left digits, centre guard)', () => {
    const v = render({ bcid: 'ean13', text: '4006381333931', moduleWidth: 1, height: 5 });
    const w = widths(v);
    // Start guard 1-1-1, then digit 0 in L parity (first digit 4 => LGLLGG): 3-2-1-1.
    expect(w.slice(0, 3)).toEqual([1, 1, 1]);
    expect(w.slice(3, 7)).toEqual([3, 2, 1, 1]);
    // Centre guard after 6 digits (3 + 24 elements): 1-1-1-1-1.
    expect(w.slice(27, 32)).toEqual([1, 1, 1, 1, 1]);
    expect(w.reduce((a, b) => a + b, 0)).toBe(95);
  });

  it('UPC-E 0123456 has the standard pattern (parity EOOEEO for check digit 5)', () => {
    const v = render({ bcid: 'upce', text: '0123456', moduleWidth: 1, height: 4 });
    expect(v.humanReadable).toBe('01234565');
    expect(v.bitmap.width).toBe(51);
    // start 101, 1(G) 2(L) 3(L) 4(G) 5(G) 6(L), end 010101 — widths alternating from the first bar.
    expect(widths(v).join('')).toBe('111' + '1222' + '2122' + '1411' + '2311' + '1321' + '1114' + '111111');
  });

  it('CODE128 modules are exact: 11 modules per character, 13 for the stop', () => {
    const mw = 3;
    const v = render({ bcid: 'code128', text: 'Hi!', moduleWidth: mw, height: 10 });
    // Start B + 3 data + check + stop = 5 * 11 + 13 modules.
    expect(v.bitmap.width).toBe((5 * 11 + 13) * mw);
    for (const w of widths(v)) expect([1, 2, 3, 4].map((m) => m * mw)).toContain(w);
  });

  it('wideRatio maps wide elements to round(ratio * moduleWidth) dots', () => {
    const cases: [number, number, number][] = [
      // moduleWidth, ratio, expected wide width
      [2, 3, 6],
      [2, 2, 4],
      [2, 2.5, 5],
      [3, 2.5, 8],
      [1, 2.5, 3],
      [1, 1, 2], // never as narrow as the narrow element
    ];
    for (const [mw, ratio, wide] of cases) {
      for (const bcid of ['code39', 'interleaved2of5', 'rationalizedCodabar']) {
        const text = bcid === 'code39' ? 'AB12' : bcid === 'interleaved2of5' ? '1234' : 'A12B';
        const v = render({ bcid, text, moduleWidth: mw, wideRatio: ratio, height: 3 });
        const set = [...new Set(widths(v))].sort((a, b) => a - b);
        expect(set, `${bcid} mw=${mw} ratio=${ratio}`).toEqual([mw, wide]);
      }
    }
  });

  it('CODE39 width follows the ratio: each character is 3 wide + 6 narrow elements + gap', () => {
    const text = 'AB12';
    for (const [mw, ratio] of [[2, 3], [2, 2], [3, 2.5]] as const) {
      const v = render({ bcid: 'code39', text, moduleWidth: mw, wideRatio: ratio, height: 3 });
      const wide = Math.round(ratio * mw);
      const chars = text.length + 2; // with start/stop '*'
      expect(v.bitmap.width).toBe(chars * (3 * wide + 6 * mw) + (chars - 1) * mw);
    }
  });

  it('default ratio is 3:1', () => {
    const v = render({ bcid: 'code39', text: 'X', moduleWidth: 2, height: 3 });
    expect([...new Set(widths(v))].sort((a, b) => a - b)).toEqual([2, 6]);
  });

  it('POSTNET keeps tall and short bars at the bottom of the requested height', () => {
    const v = render({ bcid: 'postnet', text: '12345', moduleWidth: 2, height: 50 });
    const { bitmap } = v;
    expect(bitmap.height).toBe(50);
    // Every bar reaches the bottom row; some reach the top, others stop at 40%.
    const bottom = runs(bitmap, 49).filter((r) => r.black).length;
    const top = runs(bitmap, 0).filter((r) => r.black).length;
    expect(bottom).toBe(32); // frame bars + 5 digits x 5 bars + check digit x 5 bars
    expect(top).toBe(2 + 6 * 2); // two full bars per digit, plus the frame bars
    expect(bitmap.get(0, 0)).toBe(true);
  });

  it('EAN-13 with a 2-digit add-on puts the add-on to the right and in humanReadable', () => {
    const plain = render({ bcid: 'ean13', text: '5901234123457', moduleWidth: 2 });
    const v = render({ bcid: 'ean13', text: '5901234123457 12', moduleWidth: 2 });
    expect(v.humanReadable).toBe('5901234123457 12');
    // 9 module gap + 20 module EAN-2.
    expect(v.bitmap.width).toBe(plain.bitmap.width + (9 + 20) * 2);
    expect(zxingDecode(v.bitmap, [BarcodeFormat.EAN_13]).text).toBe('5901234123457');
  });

  it('stacked DataBar splits the height between rows', () => {
    const v = render({ bcid: 'databarstacked', text: '(01)09501101530003', moduleWidth: 2, height: 26 });
    expect(v.bitmap.width).toBe(50 * 2);
    expect(v.bitmap.height).toBe(26);
    expect(v.humanReadable).toBe('(01)09501101530003');
  });
});

describe('renderLinearBarcode: errors never throw', () => {
  const bad: [Partial<LinearBarcodeRequest> & { bcid: string; text: string }, RegExp][] = [
    [{ bcid: 'ean13', text: '12345' }, /ean13: .*(length|digits)/i],
    [{ bcid: 'ean13', text: '5901234123458' }, /check digit/i],
    [{ bcid: 'ean13', text: '59012341234X' }, /ean13/],
    [{ bcid: 'upca', text: '1234567890123456' }, /upca/],
    [{ bcid: 'code39', text: 'abc' }, /code39: Code 39 must contain only/],
    [{ bcid: 'interleaved2of5', text: '12A4' }, /interleaved2of5/],
    [{ bcid: 'rationalizedCodabar', text: '1234' }, /start and stop/i],
    [{ bcid: 'gs1-128', text: '0109501101530003' }, /gs1-128/],
    [{ bcid: 'nosuchcode', text: '123' }, /unknown symbology 'nosuchcode'/],
    [{ bcid: 'code128', text: '' }, /no data/],
    [{ bcid: 'code128', text: 'A', moduleWidth: 0 }, /module width/],
    [{ bcid: 'code128', text: 'A', moduleWidth: 1.5 }, /module width/],
    [{ bcid: 'code128', text: 'A', height: 0 }, /height/],
    [{ bcid: 'code128', text: 'A', height: 10_000_000 }, /too large/],
    [{ bcid: 'qrcode', text: 'A' }, /not a linear symbology/],
  ];
  for (const [req, re] of bad) {
    it(`${req.bcid} ${JSON.stringify(req.text)}`, () => {
      const r = renderLinearBarcode({ moduleWidth: 2, height: 40, ...req });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(re);
    });
  }

  it('renders deterministically', () => {
    const a = render({ bcid: 'code128', text: 'same' });
    const b = render({ bcid: 'code128', text: 'same' });
    expect(Buffer.from(a.bitmap.pixels).equals(Buffer.from(b.bitmap.pixels))).toBe(true);
  });
});
