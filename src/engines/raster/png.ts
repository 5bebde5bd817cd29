import { decode, encode } from 'fast-png';
import { Bitmap } from './bitmap.ts';
import type { PngImage } from '../canvas/model.ts';

/**
 * PNG as the contract wants it: 1-bit palette image, index 0 white and fully transparent,
 * index 1 black and opaque, so receipts composite onto any paper colour.
 */
// fast-png writes tRNS from RGBA palette entries (its `transparency` option is for other
// colour types): without the alpha here white came out opaque.
const PALETTE: [number, number, number, number][] = [
  [255, 255, 255, 0],
  [0, 0, 0, 255],
];

/**
 * Pictures this small are stored uncompressed inside the PNG's zlib stream (deflate level 0):
 * fflate's compressor allocates ~170 KB of tables per call, which for 20,000 tiny rasters was
 * gigabytes of garbage (workerd's resident memory grew by 400 MB and stayed) for a gain of a
 * few bytes per picture.
 */
const STORED_MAX_BYTES = 512;
const STORED = { zlib: { level: 0 as const } };

function sameRow(px: Uint8Array, a: number, b: number, w: number): boolean {
  for (let i = 0; i < w; i++) if (px[a + i] !== px[b + i]) return false;
  return true;
}

/**
 * The one PNG path of every engine. Packs 8 dots at a time and packs identical consecutive
 * rows (the bars of a linear bar code) only once: bar codes dominate label rendering time.
 */
export function encodeBitmapPng(bitmap: Bitmap): PngImage {
  const { width, height, pixels } = bitmap;
  // Zero-sized images are not valid PNGs; a 1x1 transparent pixel stands in for them.
  const w = Math.max(1, width), h = Math.max(1, height);
  const stride = Math.ceil(w / 8);
  const packed = new Uint8Array(stride * h);
  const full = width >> 3;
  for (let y = 0; y < height; y++) {
    const src = y * width;
    const dst = y * stride;
    if (y > 0 && sameRow(pixels, src - width, src, width)) {
      packed.copyWithin(dst, dst - stride, dst);
      continue;
    }
    let x = 0;
    for (let b = 0; b < full; b++, x += 8) {
      const i = src + x;
      packed[dst + b] =
        (pixels[i] << 7) | (pixels[i + 1] << 6) | (pixels[i + 2] << 5) | (pixels[i + 3] << 4) |
        (pixels[i + 4] << 3) | (pixels[i + 5] << 2) | (pixels[i + 6] << 1) | pixels[i + 7];
    }
    for (; x < width; x++) if (pixels[src + x] === 1) packed[dst + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const png = encodedPngs.get(w, h, packed, () => ownBytes(encode({ width: w, height: h, data: packed, depth: 1, channels: 1, palette: PALETTE }, packed.length <= STORED_MAX_BYTES ? STORED : undefined)));
  return { png, widthInDots: width, heightInDots: height };
}

/**
 * The bytes in a buffer of their own size. fast-png returns a view of its write buffer (8 KB
 * or more): a kept 80-byte PNG would keep the whole buffer, which the cache below and every
 * document holding the PNG do not count (20,000 tiny rasters kept 164 MB alive).
 */
function ownBytes(view: Uint8Array): Uint8Array {
  return view.byteLength === view.buffer.byteLength ? view : view.slice();
}

/**
 * PNGs by their bit-packed rows: a bitmap with the same dots as one encoded lately (a symbol
 * scaled again, a logo or band sent again, a receipt printed twice) gets the same PNG bytes
 * object without deflating again, so hosts that key work by those bytes (hashing, storing) do
 * it once per distinct picture. Bounded by bytes, least recently used evicted.
 */
class EncodedPngs {
  private readonly entries = new Map<string, { packed: Uint8Array; png: Uint8Array }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number, private readonly maxEntryBytes: number) {}

  get(w: number, h: number, packed: Uint8Array, encodePng: () => Uint8Array): Uint8Array {
    if (packed.length > this.maxEntryBytes) return encodePng();
    const key = `${w}x${h}:${fnv1a(packed)}`;
    const hit = this.entries.get(key);
    if (hit && sameBytes(hit.packed, packed)) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.png;
    }
    const png = encodePng();
    if (hit) this.remove(key, hit);
    this.entries.set(key, { packed, png });
    this.bytes += packed.length + png.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
    return png;
  }

  private remove(key: string, e: { packed: Uint8Array; png: Uint8Array }): void {
    this.entries.delete(key);
    this.bytes -= e.packed.length + e.png.length;
  }
}

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** 8 MB of recent pictures (a 576x2400 receipt's bands are 170 KB packed); larger ones are not kept. */
const encodedPngs = new EncodedPngs(8 << 20, 256 << 10);

const pngOfBitmap = new WeakMap<Bitmap, PngImage>();
const bitmapOfPng = new WeakMap<PngImage, Bitmap>();

/**
 * The PNG of a bitmap, encoded once per bitmap object (label copies share it) and only when
 * its bytes are first read: a graphic that is cropped to the label is never encoded whole, and
 * a host can have the encoding done in bounded steps (`isEncoded`, ProtocolSession.finishStep).
 */
export function pngOf(b: Bitmap): PngImage {
  let p = pngOfBitmap.get(b);
  if (!p) {
    let bytes: Uint8Array | null = null;
    const image: PngImage = {
      get png(): Uint8Array {
        if (!bytes) {
          bytes = encodeBitmapPng(b).png;
          unencoded.delete(image);
        }
        return bytes;
      },
      widthInDots: b.width,
      heightInDots: b.height,
    };
    p = image;
    pngOfBitmap.set(b, p);
    bitmapOfPng.set(p, b);
    unencoded.add(p);
  }
  return p;
}

const unencoded = new WeakSet<PngImage>();

/** True while a `pngOf` image has not been encoded yet (reading `png` encodes it). */
export function isPendingEncode(p: PngImage): boolean {
  return unencoded.has(p);
}

/** The bitmap a PNG made by `pngOf` came from (to crop an image without decoding it). */
export function bitmapOf(png: PngImage): Bitmap | undefined {
  return bitmapOfPng.get(png);
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
