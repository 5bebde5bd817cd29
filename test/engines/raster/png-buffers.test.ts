/**
 * A PNG the engines keep (in their cache, in a document) holds no more memory than its bytes:
 * fast-png answers with a view of its 8 KB write buffer, which a tiny picture would otherwise
 * keep alive whole (20,000 tiny rasters kept 164 MB).
 */
import { describe, expect, it } from 'vitest';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { decodePngToBitmap, encodeBitmapPng } from '../../../src/engines/raster/png.ts';

describe('encoded PNG buffers', () => {
  for (const [w, h] of [[16, 2], [200, 100], [576, 600]] as const) {
    it(`a ${w}x${h} picture's PNG owns a buffer of its own size and decodes to its dots`, () => {
      const b = new Bitmap(w, h);
      for (let i = 0; i < b.pixels.length; i += 3) b.pixels[i] = 1;
      const { png } = encodeBitmapPng(b);
      expect(png.byteOffset).toBe(0);
      expect(png.buffer.byteLength).toBe(png.byteLength);
      expect(Array.from(decodePngToBitmap(png).pixels)).toEqual(Array.from(b.pixels));
    });
  }
});
