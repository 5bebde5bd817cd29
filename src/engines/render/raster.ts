/**
 * The page the renderer draws on: a 1-bit raster packed 8 dots per byte, MSB = leftmost dot,
 * rows padded to whole bytes. That is PNG's and PDF's 1-bit sample layout, so encoding needs
 * no repacking; and it is 8x smaller than one byte per dot, which keeps a 576 x 3000 receipt
 * at ~216 KB.
 */
import type { Bitmap } from '../raster/bitmap.ts';
import type { DrawMode } from '../canvas/model.ts';

export class PackedRaster {
  readonly width: number;
  readonly height: number;
  /** Bytes per row. */
  readonly stride: number;
  readonly data: Uint8Array;

  constructor(width: number, height: number) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
      throw new RangeError(`invalid raster size ${width}x${height}`);
    }
    this.width = width;
    this.height = height;
    this.stride = Math.ceil(width / 8);
    this.data = new Uint8Array(this.stride * height);
  }

  get(x: number, y: number): boolean {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return false;
    return (this.data[y * this.stride + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
  }

  plot(x: number, y: number, mode: DrawMode = 'black'): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = y * this.stride + (x >> 3);
    const bit = 0x80 >> (x & 7);
    if (mode === 'black') this.data[i] |= bit;
    else if (mode === 'white') this.data[i] &= ~bit;
    else this.data[i] ^= bit;
  }

  fillRect(x: number, y: number, w: number, h: number, mode: DrawMode = 'black'): void {
    const x0 = Math.max(0, Math.round(x)), y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w)), y1 = Math.min(this.height, Math.round(y + h));
    if (x1 <= x0 || y1 <= y0) return;
    const firstByte = x0 >> 3, lastByte = (x1 - 1) >> 3;
    const firstMask = 0xff >> (x0 & 7);
    const lastMask = (0xff << (7 - ((x1 - 1) & 7))) & 0xff;
    for (let yy = y0; yy < y1; yy++) {
      const row = yy * this.stride;
      for (let b = firstByte; b <= lastByte; b++) {
        let mask = 0xff;
        if (b === firstByte) mask &= firstMask;
        if (b === lastByte) mask &= lastMask;
        const i = row + b;
        if (mode === 'black') this.data[i] |= mask;
        else if (mode === 'white') this.data[i] &= ~mask;
        else this.data[i] ^= mask;
      }
    }
  }

  /** Draw the black dots of `src` at (x, y) (dots print; white never erases). */
  drawBitmap(src: Bitmap, x: number, y: number): void {
    for (let sy = 0; sy < src.height; sy++) {
      const ty = y + sy;
      if (ty < 0 || ty >= this.height) continue;
      const srcRow = sy * src.width;
      for (let sx = 0; sx < src.width; sx++) {
        if (src.pixels[srcRow + sx] === 1) this.plot(x + sx, ty);
      }
    }
  }

  /** Copy all rows of `src` into this raster starting at row `y` (left-aligned). */
  copyRowsFrom(src: PackedRaster, y: number): void {
    const n = Math.min(src.stride, this.stride);
    for (let sy = 0; sy < src.height; sy++) {
      const ty = y + sy;
      if (ty < 0 || ty >= this.height) continue;
      this.data.set(src.data.subarray(sy * src.stride, sy * src.stride + n), ty * this.stride);
    }
  }

  countBlack(): number {
    let n = 0;
    for (let i = 0; i < this.data.length; i++) {
      let v = this.data[i];
      while (v) { v &= v - 1; n++; }
    }
    return n;
  }
}

/**
 * Apply the black dots of packed rows `src` to `dst` at (x, y) in `mode` (black prints, white
 * erases, xor flips): whole bytes shifted into place, the common case for images and bar
 * codes; dot by dot where `src` crosses the page's edge.
 */
export function blitPacked(dst: PackedRaster, src: PackedRaster, x: number, y: number, mode: DrawMode = 'black'): void {
  if (x < 0 || x + src.width > dst.width) {
    for (let sy = 0; sy < src.height; sy++) for (let sx = 0; sx < src.width; sx++) if (src.get(sx, sy)) dst.plot(x + sx, y + sy, mode);
    return;
  }
  const shift = x & 7, firstByte = x >> 3;
  const tail = src.width & 7;
  const lastMask = tail === 0 ? 0xff : (0xff << (8 - tail)) & 0xff;
  const d = dst.data;
  for (let sy = 0; sy < src.height; sy++) {
    const ty = y + sy;
    if (ty < 0 || ty >= dst.height) continue;
    const s = sy * src.stride, row = ty * dst.stride + firstByte;
    for (let i = 0; i < src.stride; i++) {
      let b = src.data[s + i];
      if (i === src.stride - 1) b &= lastMask;
      if (b === 0) continue;
      const hi = b >> shift, lo = shift !== 0 ? (b << (8 - shift)) & 0xff : 0;
      if (mode === 'black') {
        d[row + i] |= hi;
        if (lo) d[row + i + 1] |= lo;
      } else if (mode === 'white') {
        d[row + i] &= ~hi;
        if (lo) d[row + i + 1] &= ~lo;
      } else {
        d[row + i] ^= hi;
        if (lo) d[row + i + 1] ^= lo;
      }
    }
  }
}

/** OR the black dots of packed rows `src` onto `dst` at (x, y) (blitPacked in black). */
export function orPacked(dst: PackedRaster, src: PackedRaster, x: number, y: number): void {
  blitPacked(dst, src, x, y, 'black');
}
