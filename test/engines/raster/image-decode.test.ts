import { describe, expect, it } from 'vitest';
import { encode as encodePng } from 'fast-png';
import { decodeUploadedImage } from '../../../src/engines/raster/image-decode.ts';
import { Bitmap } from '../../../src/engines/raster/bitmap.ts';
import { encodeBitmapPng } from '../../../src/engines/raster/png.ts';

const LIMITS = { maxWidth: 512, maxHeight: 512, maxBytes: 1 << 20 };

/** Test pattern: a black diagonal, a black 3x2 block at the top-left, the rest white. */
function isBlack(x: number, y: number): boolean {
  return x === y || (x < 3 && y < 2);
}

function expectPattern(bmp: Bitmap, w: number, h: number): void {
  expect(bmp.width).toBe(w);
  expect(bmp.height).toBe(h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (bmp.get(x, y) !== isBlack(x, y)) throw new Error(`pixel ${x},${y} should be ${isBlack(x, y) ? 'black' : 'white'}`);
  }
}

/**
 * A BMP written by hand: BITMAPFILEHEADER + BITMAPINFOHEADER, rows padded to 4 bytes,
 * bottom-up unless `topDown` (negative height).
 */
function makeBmp(w: number, h: number, bpp: 1 | 8 | 24 | 32, opts: { topDown?: boolean; palette?: [number, number, number][]; invertPalette?: boolean } = {}): Uint8Array {
  const palette = opts.palette ?? (bpp === 1 ? (opts.invertPalette ? [[0, 0, 0], [255, 255, 255]] : [[255, 255, 255], [0, 0, 0]]) : bpp === 8 ? Array.from({ length: 256 }, (_, i) => [i, i, i] as [number, number, number]) : []);
  const stride = Math.ceil((w * bpp) / 32) * 4;
  const paletteBytes = palette.length * 4;
  const offset = 14 + 40 + paletteBytes;
  const size = offset + stride * h;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  b[0] = 0x42; b[1] = 0x4d;
  dv.setUint32(2, size, true);
  dv.setUint32(10, offset, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, w, true);
  dv.setInt32(22, opts.topDown ? -h : h, true);
  dv.setUint16(26, 1, true);
  dv.setUint16(28, bpp, true);
  dv.setUint32(30, 0, true);
  dv.setUint32(34, stride * h, true);
  dv.setUint32(46, palette.length, true);
  palette.forEach(([r, g, bl], i) => { b[54 + i * 4] = bl; b[55 + i * 4] = g; b[56 + i * 4] = r; });
  for (let y = 0; y < h; y++) {
    const fileRow = opts.topDown ? y : h - 1 - y;
    const row = offset + fileRow * stride;
    for (let x = 0; x < w; x++) {
      const black = isBlack(x, y);
      if (bpp === 1) {
        const index = black !== !!opts.invertPalette ? 1 : 0;
        if (index) b[row + (x >> 3)] |= 0x80 >> (x & 7);
      } else if (bpp === 8) {
        b[row + x] = black ? 20 : 230;
      } else {
        const px = row + x * (bpp / 8);
        // Dark red reads as black (luminance < 128), light yellow as white.
        const [r, g, bl] = black ? [120, 10, 10] : [250, 240, 100];
        b[px] = bl; b[px + 1] = g; b[px + 2] = r;
        if (bpp === 32) b[px + 3] = 255;
      }
    }
  }
  return b;
}

describe('decodeUploadedImage: BMP', () => {
  for (const bpp of [1, 8, 24, 32] as const) {
    for (const [w, h] of [[13, 9], [8, 8], [33, 5]]) {
      it(`${bpp}-bit ${w}x${h} bottom-up`, () => {
        const r = decodeUploadedImage(makeBmp(w, h, bpp), LIMITS);
        if (!r.ok) throw new Error(r.error);
        expectPattern(r.bitmap, w, h);
      });
    }
    it(`${bpp}-bit top-down (negative height)`, () => {
      const r = decodeUploadedImage(makeBmp(11, 7, bpp, { topDown: true }), LIMITS);
      if (!r.ok) throw new Error(r.error);
      expectPattern(r.bitmap, 11, 7);
    });
  }

  it('1-bit with palette index 0 = black follows the palette, not the bit', () => {
    const r = decodeUploadedImage(makeBmp(12, 6, 1, { invertPalette: true }), LIMITS);
    if (!r.ok) throw new Error(r.error);
    expectPattern(r.bitmap, 12, 6);
  });

  it('truncated BMP pixel data is an error', () => {
    const full = makeBmp(40, 40, 24);
    const r = decodeUploadedImage(full.subarray(0, full.length - 10), LIMITS);
    expect(r).toEqual({ ok: false, error: 'invalid BMP: truncated pixel data' });
  });

  it('truncated BMP header is an error', () => {
    const r = decodeUploadedImage(makeBmp(4, 4, 24).subarray(0, 30), LIMITS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/invalid BMP/);
  });

  it('BMP over the size limits is refused before decoding', () => {
    const r = decodeUploadedImage(makeBmp(600, 10, 1), LIMITS);
    expect(r).toEqual({ ok: false, error: 'image too large: 600x10 dots, limit 512x512' });
    // Header claims a huge image, file is tiny: refused from the header alone.
    const liar = makeBmp(4, 4, 24);
    new DataView(liar.buffer).setInt32(22, 100000, true);
    const r2 = decodeUploadedImage(liar, LIMITS);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.error).toMatch(/image too large: 4x100000/);
  });

  it('unsupported bit depth is an error', () => {
    const b = makeBmp(4, 4, 24);
    new DataView(b.buffer).setUint16(28, 7, true);
    const r = decodeUploadedImage(b, LIMITS);
    expect(r).toEqual({ ok: false, error: 'invalid BMP: unsupported 7 bits per pixel' });
  });
});

describe('decodeUploadedImage: PNG', () => {
  it('round-trips the 1-bit palette PNG the project renders', () => {
    const src = new Bitmap(21, 13);
    for (let y = 0; y < 13; y++) for (let x = 0; x < 21; x++) if (isBlack(x, y)) src.set(x, y);
    const r = decodeUploadedImage(encodeBitmapPng(src).png, LIMITS);
    if (!r.ok) throw new Error(r.error);
    expectPattern(r.bitmap, 21, 13);
  });

  it('thresholds 8-bit greyscale and RGBA (transparent = white)', () => {
    const w = 10, h = 6;
    const grey = new Uint8Array(w * h);
    const rgba = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      grey[i] = isBlack(x, y) ? 100 : 160;
      // Black pixels opaque dark; white pixels are dark but fully transparent.
      rgba.set(isBlack(x, y) ? [30, 30, 30, 255] : [0, 0, 0, 0], i * 4);
    }
    for (const png of [encodePng({ width: w, height: h, data: grey, channels: 1, depth: 8 }), encodePng({ width: w, height: h, data: rgba, channels: 4, depth: 8 })]) {
      const r = decodeUploadedImage(png, LIMITS);
      if (!r.ok) throw new Error(r.error);
      expectPattern(r.bitmap, w, h);
    }
  });

  it('PNG over the limits is refused', () => {
    const png = encodePng({ width: 600, height: 2, data: new Uint8Array(1200), channels: 1, depth: 8 });
    expect(decodeUploadedImage(png, LIMITS)).toEqual({ ok: false, error: 'image too large: 600x2 dots, limit 512x512' });
    expect(decodeUploadedImage(png, { ...LIMITS, maxWidth: 600, maxBytes: 10 })).toEqual({ ok: false, error: `image too large: ${png.length} bytes, limit 10 bytes` });
  });

  it('corrupt PNG is an error, not an exception', () => {
    const png = encodePng({ width: 8, height: 8, data: new Uint8Array(64), channels: 1, depth: 8 });
    const broken = png.slice(0, 40);
    const r = decodeUploadedImage(broken, LIMITS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^invalid PNG: /);
  });
});

describe('decodeUploadedImage: type detection', () => {
  it('refuses anything but PNG and BMP', () => {
    for (const bytes of [new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), new TextEncoder().encode('GIF89a....'), new Uint8Array([1])]) {
      expect(decodeUploadedImage(bytes, LIMITS)).toEqual({ ok: false, error: 'unsupported image type, expected PNG or BMP' });
    }
  });
  it('refuses empty input', () => {
    expect(decodeUploadedImage(new Uint8Array(0), LIMITS)).toEqual({ ok: false, error: 'empty image' });
  });
  it('never throws on random bytes after a valid signature', () => {
    let seed = 1;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    for (let n = 0; n < 300; n++) {
      const len = 2 + (n % 200);
      const b = new Uint8Array(len);
      for (let i = 0; i < len; i++) b[i] = rnd();
      if (n % 2) { b[0] = 0x42; b[1] = 0x4d; } else b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].slice(0, len));
      const r = decodeUploadedImage(b, LIMITS);
      expect(typeof r.ok).toBe('boolean');
    }
  });
});
