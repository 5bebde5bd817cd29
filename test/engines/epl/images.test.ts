import { describe, expect, it } from 'vitest';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { bitmapOf, decodePngToBitmap, encodeBitmapPng, pngOf } from '../../../src/engines/raster/png.ts';

describe('PNG encoding (the one PNG path of every engine)', () => {
  it('round-trips random bitmaps and bar patterns exactly', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (const [w, h] of [[1, 1], [7, 3], [8, 8], [13, 5], [64, 2], [333, 17], [0, 0]]) {
      const b = new Bitmap(w, h);
      for (let i = 0; i < b.pixels.length; i++) b.pixels[i] = rnd() < 0.5 ? 1 : 0;
      // A few identical rows, as in bar codes.
      if (h > 3) b.pixels.copyWithin(b.width * 2, b.width, b.width * 2);
      const mine = encodeBitmapPng(b);
      expect(mine).toMatchObject({ widthInDots: w, heightInDots: h });
      if (w > 0) expect(decodePngToBitmap(mine.png).pixels).toEqual(b.pixels);
      const memo = pngOf(b);
      expect(pngOf(b)).toBe(memo);
      expect(bitmapOf(memo)).toBe(b);
      expect(memo.png).toEqual(mine.png);
    }
  });
});
