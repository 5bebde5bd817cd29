/** The bar code adapters every engine shares (src/engines/raster/symbols.ts), against zxing and GS1's published numbers. */
import { BarcodeFormat } from '@zxing/library';
import { describe, expect, it } from 'vitest';
import { bwipEscape, gs1CheckDigit, gtin14, humanReadableBelow, isCode39Basic, renderLinearSymbol, renderMatrixSymbol } from '../../../src/engines/raster/symbols.ts';
import { zxingDecode } from './decode-helpers.ts';

describe('shared symbol adapters', () => {
  it('computes GS1 check digits as printed on real products', () => {
    // EAN-13 4006381333931 (the GS1 example on Wikipedia), UPC-A 036000291452, SSCC 106141411234567897.
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigit('03600029145')).toBe(2);
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
  });

  it('normalises GTINs for GS1 DataBar and refuses what is none', () => {
    expect(gtin14('(01)0400638133393')).toBe('04006381333931');
    expect(gtin14('400638133393')).toBe('04006381333931');
    expect(gtin14('01 04006381333931')).toBe('04006381333931');
    expect(gtin14('12345')).toBeNull();
    expect(gtin14('ABCDEFGHIJKLM')).toBeNull();
  });

  it('knows Code 39 basic data and escapes bytes for bwip-js', () => {
    expect(isCode39Basic('ABC-123 $/+%.')).toBe(true);
    expect(isCode39Basic('abc')).toBe(false);
    expect([0x1d, 0x5e, 0x41, 0xe9].map(bwipEscape).join('')).toBe('^029^094A^233');
  });

  it('renders a linear symbol zxing reads, keeps a protocol\'s own text, and reuses the bitmap', () => {
    const r = renderLinearSymbol({ bcid: 'ean13', text: '400638133393' }, 2, 60);
    if (!r.ok) throw new Error(r.error);
    expect(zxingDecode(r.value.bitmap, [BarcodeFormat.EAN_13]).text).toBe('4006381333931');
    expect(r.value.humanReadable).toBe('4006381333931');
    const own = renderLinearSymbol({ bcid: 'code39', text: 'ABC', humanReadable: '*ABC*' }, 2, 40, 3);
    if (!own.ok) throw new Error(own.error);
    expect(own.value.humanReadable).toBe('*ABC*');
    expect(zxingDecode(own.value.bitmap, [BarcodeFormat.CODE_39]).text).toBe('ABC');
    const again = renderLinearSymbol({ bcid: 'ean13', text: '400638133393' }, 2, 60);
    expect(again.ok && again.value.bitmap).toBe(r.value.bitmap);
    const bad = renderLinearSymbol({ bcid: 'ean13', text: 'nope' }, 2, 60);
    expect(bad.ok).toBe(false);
  });

  it('renders a 2D symbol zxing reads', () => {
    const r = renderMatrixSymbol({ bcid: 'qrcode', text: 'https://example.com/r/42', moduleSize: 4, options: { eclevel: 'M' } });
    if (!r.ok) throw new Error(r.error);
    expect(zxingDecode(r.value.bitmap, [BarcodeFormat.QR_CODE]).text).toBe('https://example.com/r/42');
  });

  it('centres the human-readable line under the bars, never left of them', () => {
    expect(humanReadableBelow({ width: 101, height: 50 }, 60, 2)).toEqual({ x: 21, y: 52 });
    expect(humanReadableBelow({ width: 40, height: 50 }, 60, 2)).toEqual({ x: 0, y: 52 });
  });
});
