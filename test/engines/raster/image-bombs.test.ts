/**
 * Decompression bombs (issue 17): an upload whose data inflates far beyond what its header
 * allows is refused before it is decoded, whatever its compressed size; honest images of the
 * same header still decode.
 */
import { describe, expect, it } from 'vitest';
import { decodeUploadedImage } from '../../../src/engines/raster/image-decode.ts';
import { bmpBomb, pngBomb, pngWithData } from '../../support/png-bomb.ts';

const LIMITS = { maxWidth: 576, maxHeight: 4096, maxBytes: 4 << 20 };

describe('PNG inflation bound', () => {
  it('refuses a small PNG whose data inflates to 64 MiB, before decoding it', () => {
    const bomb = pngBomb(64, 64, 64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const result = decodeUploadedImage(bomb, LIMITS);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/inflates beyond the 4160 bytes a 64x64 image needs/);
  });

  it('decodes the honest image of the same header', () => {
    const raw = new Uint8Array(64 * 65);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) raw[y * 65 + 1 + x] = x < 32 ? 0 : 255;
    const result = decodeUploadedImage(pngWithData(64, 64, raw), LIMITS);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.bitmap.get(0, 0)).toBe(true);
      expect(result.bitmap.get(63, 63)).toBe(false);
    }
  });
});

describe('BMP header sanity', () => {
  it('refuses a BMP claiming more pixels than the limits before allocating them', () => {
    const bmp = bmpBomb();
    const result = decodeUploadedImage(bmp, LIMITS);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/image too large: 60000x60000/);
  });
});
