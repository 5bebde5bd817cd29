import { decode, encode } from 'fast-png';
import { Bitmap } from './bitmap.ts';
import type { PngImage } from '../canvas/model.ts';

/**
 * PNG as the contract wants it: 1-bit palette image, index 0 white and fully transparent,
 * index 1 black and opaque, so receipts composite onto any paper colour.
 */
const PALETTE: [number, number, number][] = [
  [255, 255, 255],
  [0, 0, 0],
];
const TRANSPARENCY = new Uint16Array([0, 255]);

export function encodeBitmapPng(bitmap: Bitmap): PngImage {
  const { width, height, pixels } = bitmap;
  // Zero-sized images are not valid PNGs; a 1x1 transparent pixel stands in for them.
  const w = Math.max(1, width), h = Math.max(1, height);
  const stride = Math.ceil(w / 8);
  const packed = new Uint8Array(stride * h);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (pixels[y * width + x] === 1) packed[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  const png = encode({ width: w, height: h, data: packed, depth: 1, channels: 1, palette: PALETTE, transparency: TRANSPARENCY });
  return { png, widthInDots: width, heightInDots: height };
}

/**
 * Decode any PNG into a 1-bit bitmap: a pixel is black when it is opaque enough and dark
 * enough (luminance below half). Used for NV image uploads and in tests.
 */
export function decodePngToBitmap(bytes: Uint8Array): Bitmap {
  const img = decode(bytes);
  const { width, height, channels, depth } = img;
  const out = new Bitmap(width, height);
  const max = depth === 16 ? 65535 : (1 << depth) - 1;
  const data = img.data as ArrayLike<number>;
  const palette = img.palette;
  const transparency = img.transparency;
  const stride = depth < 8 ? Math.ceil((width * channels * depth) / 8) : 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r: number, g: number, b: number, a = 1;
      if (depth < 8) {
        // fast-png keeps sub-byte depths packed.
        const bitPos = x * depth;
        const byte = data[y * stride + (bitPos >> 3)];
        const v = (byte >> (8 - depth - (bitPos & 7))) & ((1 << depth) - 1);
        if (palette) {
          [r, g, b] = palette[v] ?? [255, 255, 255];
          a = transparency && v < transparency.length ? transparency[v] / 255 : 1;
        } else {
          r = g = b = (v / ((1 << depth) - 1)) * 255;
        }
      } else {
        const i = (y * width + x) * channels;
        if (palette) {
          const v = data[i];
          [r, g, b] = palette[v] ?? [255, 255, 255];
          a = transparency && v < transparency.length ? transparency[v] / 255 : 1;
        } else if (channels <= 2) {
          r = g = b = (data[i] / max) * 255;
          if (channels === 2) a = data[i + 1] / max;
        } else {
          r = (data[i] / max) * 255; g = (data[i + 1] / max) * 255; b = (data[i + 2] / max) * 255;
          if (channels === 4) a = data[i + 3] / max;
        }
      }
      const luminance = 0.299 * r + 0.587 * g + 0.114 * b;
      if (a >= 0.5 && luminance < 128) out.pixels[y * width + x] = 1;
    }
  }
  return out;
}
