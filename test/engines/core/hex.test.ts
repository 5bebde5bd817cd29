/** core/hex.ts: every path of `toHex` (joined, written digits, Buffer's hex) gives the same uppercase hex. */
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/engines/core/hex.ts';

describe('toHex', () => {
  it('is the uppercase hex of the slice, whatever its length and offset', () => {
    const backing = Uint8Array.from({ length: 700 }, (_, i) => (i * 167 + 13) & 0xff);
    const bytes = backing.subarray(5);
    for (let n = 0; n <= 300; n++) {
      for (const start of [0, 1, 37]) {
        const slice = [...bytes.subarray(start, start + n)];
        const expected = slice.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join('');
        expect(toHex(bytes, start, start + n)).toBe(expected);
      }
    }
    expect(toHex(Uint8Array.of(0x00, 0xff, 0x0a, 0xa0, 0x1b, 0x40, 0x7f, 0x80))).toBe('00FF0AA01B407F80');
  });
});
