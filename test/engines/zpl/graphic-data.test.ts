/** ^GF / ~DG data: Zebra's hex compression, ZB64 (B64 / Z64) with its CRC. */
import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc16Xmodem, decodeCompressedHex, decodeGraphic, decodeZb64 } from '../../../src/engines/zpl/graphic-data.ts';

const b64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const hex4 = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');

describe('ZB64', () => {
  it('the CRC is CRC-16/XMODEM (catalogue check value 0x31C3 for "123456789")', () => {
    expect(crc16Xmodem('123456789')).toBe(0x31c3);
  });

  it('Z64 inflates zlib data and checks the CRC; a wrong CRC aborts', () => {
    const raw = Uint8Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? 0xff : 0));
    const text = b64(zlibSync(raw));
    const good = decodeZb64(`:Z64:${text}:${hex4(crc16Xmodem(text))}`);
    expect(good.ok && Array.from(good.bytes)).toEqual(Array.from(raw));
    const bad = decodeZb64(`:Z64:${text}:${hex4(crc16Xmodem(text) ^ 1)}`);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/CRC/);
    const noCrc = decodeZb64(`:Z64:${text}`);
    expect(noCrc.ok).toBe(true);
  });

  it('B64 is plain Base64; garbage is reported', () => {
    const r = decodeZb64(`:B64:${b64(Uint8Array.of(1, 2, 3))}`);
    expect(r.ok && Array.from(r.bytes)).toEqual([1, 2, 3]);
    expect(decodeZb64(':Z64:!!!!:0000').ok).toBe(false);
  });
});

describe('compressed ASCII hex', () => {
  it('G–Y repeat 1–19 times, g–z add 20–400, combined', () => {
    expect(Array.from(decodeCompressedHex('IF', 2, 2).bytes)).toEqual([0xff, 0xf0]);
    // gK0: 20 + 5 = 25 zero digits, then F as the 26th digit (low half of byte 12).
    expect(Array.from(decodeCompressedHex('gK0F', 13, 13).bytes.slice(11))).toEqual([0, 0x0f]);
    // zz0: 800 zero digits, then F starts byte 400.
    expect(Array.from(decodeCompressedHex('zz0F', 401, 401).bytes.slice(399))).toEqual([0, 0xf0]);
  });

  it(', fills the row with zeros, ! with ones, : repeats the previous row', () => {
    expect(Array.from(decodeCompressedHex('F,!:', 9, 3).bytes)).toEqual([0xf0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });

  it('too little data leaves the rest white; bad sizes are errors', () => {
    const r = decodeGraphic('A', 'FF', 4, 2);
    expect(r.ok && Array.from(r.bitmap.pixels.slice(0, 16))).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(decodeGraphic('A', 'FF', 4, 0).ok).toBe(false);
    expect(decodeGraphic('C', 'FF', 4, 2).ok).toBe(false);
  });
});
