/**
 * ZPL bar codes: every symbol decodes to its data with ZXing (a reader nobody here wrote):
 * @zxing/library, and zxing-cpp (zxing-wasm) for MaxiCode, which the JS port cannot read.
 */
import * as bwipModule from '@bwip-js/generic';
import { describe, expect, it } from 'vitest';
import { maxicodeData } from '../../../src/engines/zpl/barcodes.ts';
import { zxingDecode as zxingRaw } from '../raster/decode-helpers.ts';
import { decodeMaxiCode } from '../raster/maxicode-decode.ts';
import { BarcodeFormat, bitmapOf, images, qrDecode, texts, zpl, zxingCpp, zxingDecode } from './helpers.ts';

function symbol(fields: string, by = '^BY2') {
  const { job } = zpl(`^XA${by}^FO40,40${fields}^FS^XZ`);
  expect(job.errorMessages).toEqual([]);
  const c = job.canvases[0];
  return { img: images(c)[0], texts: texts(c), bmp: bitmapOf(images(c)[0]) };
}

describe('linear bar codes decode to their data', () => {
  const cases: Array<[string, string, BarcodeFormat, string]> = [
    ['^BCN,80,Y,N,N', 'SLIP-12345', BarcodeFormat.CODE_128, 'SLIP-12345'],
    ['^BCN,80,Y,N,N', '>;123456>6AB', BarcodeFormat.CODE_128, '123456AB'],
    ['^BCN,80,Y,N,N,A', '0123456789', BarcodeFormat.CODE_128, '0123456789'],
    ['^B3N,N,80,Y,N', 'CODE39', BarcodeFormat.CODE_39, 'CODE39'],
    ['^BAN,80,Y,N', 'CODE93', BarcodeFormat.CODE_93, 'CODE93'],
    ['^BEN,80,Y,N', '400638133393', BarcodeFormat.EAN_13, '4006381333931'],
    ['^B8N,80,Y,N', '5512345', BarcodeFormat.EAN_8, '55123457'],
    ['^BUN,80,Y,N', '07000002198', BarcodeFormat.UPC_A, '070000021985'],
    ['^B2N,80,Y,N', '12345678', BarcodeFormat.ITF, '12345678'],
    ['^BKN,N,80,Y,N,A,B', '123456', BarcodeFormat.CODABAR, 'A123456B'],
    // LOGMARS always carries the mod 43 check character (J here), which ZXing returns.
    ['^BLN,80', 'LOGMARS', BarcodeFormat.CODE_39, 'LOGMARSJ'],
  ];
  for (const [command, data, format, expected] of cases) {
    it(`${command} ${data}`, () => {
      const s = symbol(`${command}^FD${data}`);
      const r = zxingDecode(s.bmp, [format]);
      expect(r?.text.replace(/^[A-D](.*)[A-D]$/, format === BarcodeFormat.CODABAR ? 'A$1B' : '$&')).toBe(expected);
    });
  }

  it('prints the interpretation line below, centred, in font A scaled with the module width', () => {
    const s = symbol('^BCN,100,Y,N,N^FD12345678');
    const [hr] = s.texts;
    expect(hr.text).toBe('12345678');
    expect(hr.y).toBe(40 + 100);
    expect(hr.height).toBe(18);
    expect(Math.abs(hr.x + hr.width / 2 - (s.img.x + s.img.width / 2))).toBeLessThanOrEqual(1);
    expect(symbol('^B3N,N,80,Y,N^FDAB1').texts[0].text).toBe('*AB1*');
    expect(symbol('^BCN,100,N^FD1').texts).toEqual([]);
  });

  it('UPC-E (read with zxing-cpp): 51 modules, the digits in Zebra\'s groups', async () => {
    const s = symbol('^B9N,80,Y,N^FD0123456');
    expect(s.img.width).toBe(51 * 2);
    // zxing-cpp reports a UPC-E as its EAN-13 expansion: 0 12345 0000 6 with check digit 5.
    expect(await zxingCpp(s.bmp, 'UPC-E')).toBe('0012345000065');
    expect(s.texts.map((t) => t.text)).toEqual(['0', '123456', '5']);
  });

  it('EAN-13 as a Zebra prints it: guards 5 modules longer, the first digit left of the bars, two groups of six', () => {
    const s = symbol('^BEN,80,Y,N^FD400638133393');
    expect(s.img.height).toBe(80 + 5 * 2);
    expect(s.bmp.get(0, 85)).toBe(true); // left guard bar reaches below the data bars
    expect(s.bmp.get(20, 85)).toBe(false);
    const [first, left, right] = s.texts;
    expect([first.text, left.text, right.text]).toEqual(['4', '006381', '333931']);
    expect(first.x + first.width).toBeLessThan(s.img.x);
    expect(left.x).toBeGreaterThan(s.img.x);
    expect(right.x + right.width).toBeLessThan(s.img.x + s.img.width);
    expect(left.y).toBe(40 + 80 + 2);
  });

  it('Code 128 without invocation codes stays in subset B, as a Zebra encodes it', () => {
    // 8 digits in subset B: start + 8 + check + stop = 123 modules (subset C would be 79).
    expect(symbol('^BCN,100,N^FD12345678').img.width).toBe(123 * 2);
  });

  it('GS1-128 (mode D) carries the application identifiers', () => {
    const s = symbol('^BCN,80,Y,N,N,D^FD(01)09501101530003(17)250101');
    const r = zxingRaw(s.bmp, [BarcodeFormat.CODE_128], { gs1: true, quiet: 40 });
    expect(r.text).toContain('0109501101530003');
    // Without parentheses, as USPS IMpb labels send it: a leading FNC1 and >8 between fields.
    const impb = zxingRaw(symbol('^BCN,80,N,N,N,D^FD4202208>89205591234567012345601').bmp, [BarcodeFormat.CODE_128], { gs1: true, quiet: 40 });
    expect(impb.text.replace(/\u001d/g, '|')).toBe(']C14202208|9205591234567012345601'); // ]C1: the reader saw the leading FNC1 (GS1-128)
  });

  it('rotated bar codes keep their bars (the PNG is unrotated, the element turned)', () => {
    const s = symbol('^BCR,80,N^FDROT90');
    expect(s.img.rotation).toBe('90');
    expect([s.img.x, s.img.y, s.img.width]).toEqual([40, 40, 80]);
    expect(zxingDecode(s.bmp, [BarcodeFormat.CODE_128])?.text).toBe('ROT90');
  });
});

describe('2D symbols decode to their data', () => {
  it('^BQ QR code with the mode prefix of its field data', () => {
    const s = symbol('^BQN,2,5^FDQA,https://example.com/track/1Z999');
    expect(s.img.y).toBe(50); // a Zebra prints ^BQ 10 dots below the origin
    expect(qrDecode(s.bmp)).toBe('https://example.com/track/1Z999');
    const manual = symbol('^BQN,2,4^FDMM,B0005HELLO');
    expect(qrDecode(manual.bmp)).toBe('HELLO');
  });

  it('^BX Data Matrix, ^B7 PDF417, ^BO Aztec', () => {
    expect(zxingDecode(symbol('^BXN,6,200^FDSKU-4711-BLUE').bmp, [BarcodeFormat.DATA_MATRIX])?.text).toBe('SKU-4711-BLUE');
    expect(zxingDecode(symbol('^B7N,4,5^FDPDF417 ON A ZEBRA 0123456789').bmp, [BarcodeFormat.PDF_417])?.text).toBe('PDF417 ON A ZEBRA 0123456789');
    expect(zxingDecode(symbol('^BON,4^FDAZTEC ZPL').bmp, [BarcodeFormat.AZTEC])?.text).toBe('AZTEC ZPL');
  });

  it('symbols only zxing-cpp reads: MicroPDF417, DataBar Limited / Expanded / Stacked, compact PDF417', async () => {
    expect(await zxingCpp(symbol('^BFN,4^FDMICRO 417').bmp, 'MicroPDF417')).toBe('MICRO 417');
    expect(await zxingCpp(symbol('^BRN,5,2,1,40^FD0950110153000').bmp, 'DataBarLimited')).toBe('0109501101530003');
    expect(await zxingCpp(symbol('^BRN,6,2,1,40,22^FD(01)09501101530003(10)ABC123').bmp, 'DataBarExpanded')).toBe('010950110153000310ABC123');
    expect(await zxingCpp(symbol('^BRN,3,2,1,40^FD0950110153000').bmp, 'DataBar')).toBe('0109501101530003');
    expect(await zxingCpp(symbol('^B7N,4,3,,,Y^FDCOMPACT PDF').bmp, 'CompactPDF417')).toBe('COMPACT PDF');
  });

  it('^BS prints a five-digit add-on (47 modules) with its digits above', () => {
    const s = symbol('^BSN,60,Y,Y^FD52495');
    expect(s.img.width).toBe(47 * 2);
    expect(s.texts.map((t) => t.text)).toEqual(['52495']);
    expect(s.texts[0].y).toBeLessThan(s.img.y);
  });

  it('^B7 rows are h x the module width, h defaulting to the ^BY height; columns as given', () => {
    const given = symbol('^B7N,5,2,3^FDROWS', '^BY2');
    const byDefault = symbol('^B7N,,2,3^FDROWS', '^BY2,3,10');
    expect(given.img.width).toBe((69 + 17 * 3) * 2);
    expect(byDefault.img.height).toBe(given.img.height * 2);
    expect(given.img.height % 10).toBe(0);
  });

  it('^BR GS1 DataBar omnidirectional', () => {
    const r = zxingDecode(symbol('^BRN,1,2,1,60^FD0950110153000').bmp, [BarcodeFormat.RSS_14]);
    expect(r?.text).toBe('09501101530003');
  });

  it('^BD MaxiCode decodes to the UPS message with the primary fields after the ANSI header', async () => {
    const data = '001840100040000[)>_1E01_1D961Z12345E02_1DUPSN_1D12345E_1D089_1D_1D1/1_1D10.1_1DY_1D_1D_1DNY_1E_04';
    const s = symbol(`^BD2,1,1^FH^FD${data}`);
    // Size: 30 hexagons of 7 dots (about an inch at 203 dpi), and the bullseye's centre is light, its first ring dark.
    expect(s.bmp.width).toBe(210);
    const cx = Math.round(14.5 * 7), cy = Math.round(7 / Math.sqrt(3) + 16 * 7 * (Math.sqrt(3) / 2));
    expect(s.bmp.get(cx, cy)).toBe(false);
    // The hexagons are exactly bwip-js's encoding of the carrier message (AIM format, mode 2).
    const GS = '\u001d', RS = '\u001e', EOT = '\u0004';
    const aim = `[)>${RS}01${GS}96100040000${GS}840${GS}001${GS}1Z12345E02${GS}UPSN${GS}12345E${GS}089${GS}${GS}1/1${GS}10.1${GS}Y${GS}${GS}${GS}NY${RS}${EOT}`;
    const decoded = data.replace(/_([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    const prepared = maxicodeData(decoded, 2);
    expect(prepared.ok && prepared.text).toBe(aim);
    const raw = (bwipModule as unknown as { default: { raw(o: object): Array<{ pixs: number[] }> } }).default.raw({ bcid: 'maxicode', text: aim, mode: 2 })[0];
    const dark = new Set(raw.pixs);
    let checked = 0;
    for (let r = 0; r < 33; r++) {
      for (let c = 0; c < 30; c++) {
        if (r % 2 === 1 && c === 29) continue;
        const x = Math.round((c + 0.5 + (r % 2) / 2) * 7), y = Math.round(7 / Math.sqrt(3) + r * 7 * (Math.sqrt(3) / 2));
        const dr = r - 16, dc = c - 14;
        if (dr * dr + dc * dc < 30) continue; // the bullseye area
        expect(s.bmp.get(x, y), `hexagon ${r},${c}`).toBe(dark.has(r * 30 + c));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(800);
    // And zxing-cpp reads the printed symbol back (the primary message: postal code, country, class).
    const text = await decodeMaxiCode(s.bmp);
    expect(text).not.toBeNull();
    expect(text).toContain('1Z12345E02');
    expect(text).toContain('UPSN');
    expect(text!.replace(/[\u001d\u001e\u0004]/g, '|')).toContain('100040000|840|001');
  });

  it('^BD mode 3 (alphanumeric postal code) and mode 4 decode', async () => {
    const m3 = symbol('^BD3^FD002826SW1A1ALondon parcel');
    expect(await decodeMaxiCode(m3.bmp)).toMatch(/SW1A1A.*826.*002.*London parcel/s);
    const m4 = symbol('^BD4^FDStandard symbol, mode 4');
    expect(await decodeMaxiCode(m4.bmp)).toBe('Standard symbol, mode 4');
  });
});
