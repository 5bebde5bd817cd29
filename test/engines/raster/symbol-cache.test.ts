/**
 * The engines' symbol cache keeps recent symbols for reuse but never more than its byte
 * budget: a job of distinct large QR Codes (a few MB of bitmap each) kept hundreds of MB alive
 * in a cache bounded by count alone.
 */
import { describe, expect, it } from 'vitest';
import { SymbolCache } from '../../../src/engines/raster/symbol-cache.ts';
import { renderMatrixSymbol } from '../../../src/engines/raster/symbols.ts';

describe('symbol cache', () => {
  it('evicts the least recently used symbols once their bytes pass the budget', () => {
    const cache = new SymbolCache<{ bytes: number }>((v) => v.bytes, 100, 1000);
    const a = cache.get('a', () => ({ bytes: 100 }));
    cache.get('b', () => ({ bytes: 100 }));
    expect(cache.get('a', () => ({ bytes: 100 }))).toBe(a);
    // 100 + 100 + 9 x 100 > 1000: the oldest (b, then a) go first.
    for (let i = 0; i < 9; i++) cache.get(`c${i}`, () => ({ bytes: 100 }));
    const b2 = { bytes: 100 };
    expect(cache.get('b', () => b2)).toBe(b2);
    expect(cache.get('c8', () => ({ bytes: 100 }))).not.toBe(b2);
  });

  it('does not keep a symbol larger than an eighth of its budget', () => {
    const cache = new SymbolCache<{ bytes: number }>((v) => v.bytes, 100, 800);
    const big = cache.get('big', () => ({ bytes: 101 }));
    expect(cache.get('big', () => ({ bytes: 101 }))).not.toBe(big);
    const small = cache.get('small', () => ({ bytes: 100 }));
    expect(cache.get('small', () => ({ bytes: 100 }))).toBe(small);
  });

  it('keeps a receipt-sized QR Code, not a large one of a few MB', () => {
    const small = { bcid: 'qrcode', text: 'https://example.com/r/1', moduleSize: 4 } as const;
    expect(renderMatrixSymbol(small)).toBe(renderMatrixSymbol(small));
    const large = { bcid: 'qrcode', text: 'Q'.repeat(1500), moduleSize: 16 } as const;
    const first = renderMatrixSymbol(large);
    expect(first.ok && first.value.bitmap.pixels.byteLength).toBeGreaterThan(1 << 20);
    expect(renderMatrixSymbol(large)).not.toBe(first);
  });
});
