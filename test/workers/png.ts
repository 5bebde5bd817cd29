/** Test PNGs built with fast-png (the same library the Worker decodes with). */
import { encode } from 'fast-png';

/** An 8-bit greyscale PNG; `black(x, y)` decides each pixel. */
export function makePng(width: number, height: number, black: (x: number, y: number) => boolean = (x, y) => (x + y) % 2 === 0): Uint8Array {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = black(x, y) ? 0 : 255;
  return encode({ width, height, data, channels: 1, depth: 8 });
}

/** An RGBA PNG with transparency (transparent counts as white). */
export function makeRgbaPng(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const black = i % 3 === 0;
    data.set(black ? [0, 0, 0, 255] : [255, 255, 255, 0], i * 4);
  }
  return encode({ width, height, data, channels: 4, depth: 8 });
}

/** A 16 x 8 checkerboard, small enough for any printer width. */
export const PNG_1x1 = makePng(16, 8);
