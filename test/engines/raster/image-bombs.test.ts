/**
 * Decompression bombs (issue 17): an upload whose data inflates far beyond what its header
 * allows is refused before it is decoded, whatever its compressed size; honest images of the
 * same header still decode.
 */
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import { decodeUploadedImage } from '../../../src/engines/raster/image-decode.ts';

const LIMITS = { maxWidth: 576, maxHeight: 4096, maxBytes: 4 << 20 };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
/** A well-formed 8-bit greyscale PNG whose IDAT holds `raw` (filter bytes included). */
function pngWith(width: number, height: number, raw: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlibSync(raw, { level: 9 })), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

describe('PNG inflation bound', () => {
  it('refuses a small PNG whose data inflates to 64 MiB, before decoding it', () => {
    const bomb = pngWith(64, 64, new Uint8Array(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const result = decodeUploadedImage(bomb, LIMITS);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/inflates beyond the 4160 bytes a 64x64 image needs/);
  });

  it('decodes the honest image of the same header', () => {
    const raw = new Uint8Array(64 * 65);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) raw[y * 65 + 1 + x] = x < 32 ? 0 : 255;
    const result = decodeUploadedImage(pngWith(64, 64, raw), LIMITS);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.bitmap.get(0, 0)).toBe(true);
      expect(result.bitmap.get(63, 63)).toBe(false);
    }
  });
});

describe('BMP header sanity', () => {
  it('refuses a BMP claiming more pixels than the limits before allocating them', () => {
    const bmp = new Uint8Array(54 + 8);
    const v = new DataView(bmp.buffer);
    bmp.set([0x42, 0x4d]);
    v.setUint32(10, 62, true);
    v.setUint32(14, 40, true);
    v.setInt32(18, 60_000, true);
    v.setInt32(22, 60_000, true);
    v.setUint16(28, 24, true);
    const result = decodeUploadedImage(bmp, LIMITS);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/image too large: 60000x60000/);
  });
});
